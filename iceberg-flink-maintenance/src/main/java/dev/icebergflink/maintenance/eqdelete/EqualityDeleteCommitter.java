package dev.icebergflink.maintenance.eqdelete;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.DeleteFileSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a conversion as ONE Iceberg {@link RewriteFiles} (a {@code replace} snapshot: the table's
 * rows do not change): removes the converted equality delete files and the deletion vectors merged
 * into new ones, adds the new position deletes or deletion vectors, each with the data sequence
 * number the worker chose, and validates with a {@link ConcurrentChangeValidator} from the starting
 * snapshot.
 *
 * <p>When the commit fails for sure, the table is unchanged and the new files are deleted; when its
 * outcome is unknown ({@link CommitStateUnknownException}) nothing is deleted, since the files may
 * be part of the table.
 */
@Internal
public final class EqualityDeleteCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(EqualityDeleteCommitter.class);

    private final Table table;
    private final Runnable beforeCommit;

    /**
     * @param table the table to commit to
     * @param beforeCommit run right before Iceberg's commit (tests inject concurrent commits here)
     */
    public EqualityDeleteCommitter(Table table, Runnable beforeCommit) {
        this.table = Objects.requireNonNull(table, "table");
        this.beforeCommit = beforeCommit == null ? () -> {} : beforeCommit;
    }

    /**
     * Commits the conversion of {@code removed}, started at {@code start}, with the workers' {@code
     * converted} deletes.
     *
     * @throws ValidationException if a concurrent commit conflicts (the table is unchanged)
     * @throws CommitFailedException if the commit failed otherwise (the table is unchanged)
     * @throws CommitStateUnknownException if the outcome is unknown (nothing was deleted)
     */
    public void commit(Snapshot start, List<DeleteFile> removed, ConvertedDeletes converted) {
        RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(start.snapshotId());
        DeleteFileSet toRemove = DeleteFileSet.create();
        toRemove.addAll(removed);
        toRemove.addAll(converted.replaced());
        toRemove.forEach(rewrite::deleteFile);
        for (ConvertedDeletes.AddedDelete added : converted.added()) {
            rewrite.addFile(added.file(), added.dataSequenceNumber());
        }
        Set<String> vectorTargets = new LinkedHashSet<>();
        for (ConvertedDeletes.AddedDelete added : converted.added()) {
            if (ContentFileUtil.isDV(added.file())) {
                vectorTargets.add(added.file().referencedDataFile());
            }
        }
        rewrite.validateWith(
                new ConcurrentChangeValidator(
                        table,
                        start.snapshotId(),
                        removed,
                        converted.referencedDataFiles(),
                        vectorTargets));
        try {
            beforeCommit.run();
            rewrite.commit();
        } catch (CommitStateUnknownException unknown) {
            throw unknown;
        } catch (ValidationException conflict) {
            deleteQuietly(table, converted, conflict);
            throw new ValidationException(
                    conflict,
                    "Cannot commit the conversion of %d equality delete files of table %s: a"
                            + " concurrent commit since snapshot %d conflicts (%s). The table is"
                            + " unchanged and the %d new delete files were deleted.",
                    removed.size(),
                    table.name(),
                    start.snapshotId(),
                    conflict.getMessage(),
                    converted.added().size());
        } catch (RuntimeException failure) {
            deleteQuietly(table, converted, failure);
            throw new CommitFailedException(
                    failure,
                    "Cannot commit the conversion of %d equality delete files of table %s: %s. The"
                            + " table is unchanged and the %d new delete files were deleted.%s",
                    removed.size(),
                    table.name(),
                    failure.getMessage(),
                    converted.added().size(),
                    failure instanceof CommitFailedException
                            ? " Other writers kept committing while Iceberg retried: raise the"
                                    + " table property '"
                                    + TableProperties.COMMIT_NUM_RETRIES
                                    + "' (default "
                                    + TableProperties.COMMIT_NUM_RETRIES_DEFAULT
                                    + ")."
                            : "");
        }
        table.refresh();
    }

    /**
     * Deletes the new files of {@code converted}, which will never be committed; failures are
     * attached to {@code cause}. Deletion vectors of one Puffin file share its location.
     */
    static void deleteQuietly(Table table, ConvertedDeletes converted, Exception cause) {
        Set<String> locations = new LinkedHashSet<>();
        converted.added().forEach(added -> locations.add(added.file().location()));
        for (String location : locations) {
            try {
                table.io().deleteFile(location);
            } catch (RuntimeException e) {
                LOG.warn("Cannot delete uncommitted delete file {}", location, e);
                cause.addSuppressed(e);
            }
        }
    }
}
