package dev.icebergflink.sink;

import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.committer.StagedCheckpoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a staged sink ({@link SinkAssembly#assembleStaged}) wrote and recorded but did not
 * commit, read back from its staging location after the job ended.
 *
 * <p>It exists for commits that must happen in one transaction with something else the job cannot
 * do itself: Flink's atomic {@code CREATE TABLE ... AS SELECT} creates (or replaces) the table and
 * adds the query's rows in one Iceberg transaction on the JobManager when the job has finished
 * ({@link #appendTo}), and deletes every staged file when it failed ({@link #discard}).
 */
@Internal
public final class StagedWrites {

    private static final Logger LOG = LoggerFactory.getLogger(StagedWrites.class);

    private final FileIO io;
    private final String location;
    private final List<IcebergCommittable> checkpoints;

    private StagedWrites(FileIO io, String location, List<IcebergCommittable> checkpoints) {
        this.io = io;
        this.location = location;
        this.checkpoints = checkpoints;
    }

    /** What the staged sink recorded under {@code stagingLocation} (nothing when it is empty). */
    public static StagedWrites read(FileIO io, String stagingLocation) {
        return new StagedWrites(io, stagingLocation, StagedCheckpoints.read(io, stagingLocation));
    }

    /** The number of checkpoints that recorded files. */
    public int checkpoints() {
        return checkpoints.size();
    }

    /**
     * Adds every staged file to the transaction's table in one snapshot: a fast append when there
     * are only data files, a row delta when there are delete files too. Nothing when no file was
     * staged. The transaction is not committed here.
     *
     * @param summary snapshot-summary properties of the new snapshot
     * @return the number of data and delete files added
     * @throws IllegalStateException when a staged manifest is missing or unreadable
     */
    public int appendTo(Transaction transaction, Map<String, String> summary) {
        Table table = transaction.table();
        List<DataFile> dataFiles = new ArrayList<>();
        List<DeleteFile> deleteFiles = new ArrayList<>();
        for (IcebergCommittable checkpoint : checkpoints) {
            if (!checkpoint.rewrittenDeleteManifests().isEmpty()) {
                throw new IllegalStateException(
                        "Staged checkpoint "
                                + checkpoint.checkpointId()
                                + " replaces delete files, which a new table cannot have");
            }
            dataFiles.addAll(StagedCheckpoints.dataFiles(table, checkpoint));
            deleteFiles.addAll(StagedCheckpoints.deleteFiles(table, checkpoint));
        }
        if (dataFiles.isEmpty() && deleteFiles.isEmpty()) {
            return 0;
        }
        SnapshotUpdate<?> update;
        if (deleteFiles.isEmpty()) {
            AppendFiles append = transaction.newFastAppend();
            dataFiles.forEach(append::appendFile);
            update = append;
        } else {
            RowDelta delta = transaction.newRowDelta();
            dataFiles.forEach(delta::addRows);
            deleteFiles.forEach(delta::addDeletes);
            update = delta;
        }
        summary.forEach(update::set);
        update.commit();
        return dataFiles.size() + deleteFiles.size();
    }

    /**
     * Deletes the staging record and the temporary manifests after a successful commit (the table
     * now references the files themselves through manifests of its own). Best effort: what cannot
     * be deleted is logged.
     */
    public void cleanUp() {
        List<String> failed = new ArrayList<>();
        for (IcebergCommittable checkpoint : checkpoints) {
            failed.addAll(StagedCheckpoints.deleteManifests(io, checkpoint));
        }
        failed.addAll(StagedCheckpoints.deleteRecords(io, location));
        deleteDirectory();
        logFailed(failed);
    }

    /**
     * Deletes every staged data and delete file, the temporary manifests and the staging record:
     * nothing the job wrote stays. Best effort: what cannot be deleted is logged.
     */
    public void discard() {
        List<String> failed = new ArrayList<>();
        for (IcebergCommittable checkpoint : checkpoints) {
            List<String> files;
            try {
                files = StagedCheckpoints.contentFilePaths(io, checkpoint);
            } catch (RuntimeException e) {
                LOG.warn("Cannot read the staged manifests of {}", checkpoint, e);
                files = List.of();
            }
            for (String file : files) {
                try {
                    io.deleteFile(file);
                } catch (RuntimeException e) {
                    failed.add(file);
                }
            }
            failed.addAll(StagedCheckpoints.deleteManifests(io, checkpoint));
        }
        failed.addAll(StagedCheckpoints.deleteRecords(io, location));
        deleteDirectory();
        logFailed(failed);
    }

    /**
     * Deletes what is left of the staging location (the directory itself on file systems, a
     * manifest that no recorded checkpoint names) where the FileIO can delete by prefix.
     */
    private void deleteDirectory() {
        if (io instanceof SupportsPrefixOperations prefixes) {
            try {
                prefixes.deletePrefix(location);
            } catch (RuntimeException e) {
                LOG.warn("Could not delete the staging location {}", location, e);
            }
        }
    }

    private void logFailed(List<String> failed) {
        if (!failed.isEmpty()) {
            LOG.warn(
                    "Could not delete {} staged files under {}: {}; they are referenced by no"
                            + " table and may be removed as orphan files",
                    failed.size(),
                    location,
                    failed);
        }
    }
}
