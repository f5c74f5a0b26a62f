package dev.icebergflink.maintenance;

import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * What a {@link RewriteDataFilesAction} changed: the data files it replaced ({@link
 * #deletedDataFiles()}), the files it wrote ({@link #addedDataFiles()}), the delete files that
 * became useless and were removed with them, and the snapshot of the commit.
 *
 * <p>It exists to give callers the names of the user documentation ({@code deletedDataFiles()},
 * {@code addedDataFiles()}) plus counts for logs and metrics.
 */
@PublicEvolving
public final class RewriteDataFilesActionResult {

    private static final RewriteDataFilesActionResult EMPTY =
            new RewriteDataFilesActionResult(List.of(), List.of(), List.of(), 0, null);

    private final List<DataFile> deletedDataFiles;
    private final List<DataFile> addedDataFiles;
    private final List<DeleteFile> removedDeleteFiles;
    private final int rewrittenFileGroups;
    private final Long snapshotId;

    RewriteDataFilesActionResult(
            List<DataFile> deletedDataFiles,
            List<DataFile> addedDataFiles,
            List<DeleteFile> removedDeleteFiles,
            int rewrittenFileGroups,
            Long snapshotId) {
        this.deletedDataFiles = List.copyOf(deletedDataFiles);
        this.addedDataFiles = List.copyOf(addedDataFiles);
        this.removedDeleteFiles = List.copyOf(removedDeleteFiles);
        this.rewrittenFileGroups = rewrittenFileGroups;
        this.snapshotId = snapshotId;
    }

    /** The result of a run that found nothing to rewrite. */
    static RewriteDataFilesActionResult empty() {
        return EMPTY;
    }

    /** The data files the rewrite replaced (removed from the table). */
    public List<DataFile> deletedDataFiles() {
        return deletedDataFiles;
    }

    /** The data files the rewrite wrote and added. */
    public List<DataFile> addedDataFiles() {
        return addedDataFiles;
    }

    /**
     * Position-delete files and deletion vectors removed because they referred only to replaced
     * data files.
     */
    public List<DeleteFile> removedDeleteFiles() {
        return removedDeleteFiles;
    }

    /** The number of data files replaced. */
    public int deletedDataFilesCount() {
        return deletedDataFiles.size();
    }

    /** The number of data files added. */
    public int addedDataFilesCount() {
        return addedDataFiles.size();
    }

    /** The total size of the replaced data files in bytes. */
    public long rewrittenBytesCount() {
        return deletedDataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    }

    /** The total size of the added data files in bytes. */
    public long addedBytesCount() {
        return addedDataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    }

    /** The number of Iceberg file groups (per-partition bins) rewritten. */
    public int rewrittenFileGroupsCount() {
        return rewrittenFileGroups;
    }

    /** The snapshot the rewrite committed; empty when nothing was rewritten. */
    public OptionalLong snapshotId() {
        return snapshotId == null ? OptionalLong.empty() : OptionalLong.of(snapshotId);
    }

    @Override
    public String toString() {
        return "RewriteDataFilesActionResult{deletedDataFiles="
                + deletedDataFiles.size()
                + ", addedDataFiles="
                + addedDataFiles.size()
                + ", removedDeleteFiles="
                + removedDeleteFiles.size()
                + ", fileGroups="
                + rewrittenFileGroups
                + ", snapshotId="
                + snapshotId
                + "}";
    }
}
