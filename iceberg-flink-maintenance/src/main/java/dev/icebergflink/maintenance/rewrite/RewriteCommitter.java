package dev.icebergflink.maintenance.rewrite;

import java.util.Collection;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a rewrite as ONE Iceberg {@link RewriteFiles} operation to a branch (main by default)
 * that validates against every commit made to it since the rewrite's starting snapshot.
 *
 * <p>Iceberg's validation gives the guarantees a rewrite needs under concurrent writers: a
 * concurrent append touches none of the replaced files and is kept; a concurrent delete of a
 * replaced file (or new position deletes or deletion vectors against one) makes the commit fail,
 * because the rewritten rows would resurrect deleted ones. With {@code useStartingSequenceNumber}
 * the new files take the starting snapshot's data sequence number, so that equality deletes
 * committed meanwhile still apply to them (and do not fail the rewrite).
 *
 * <p>When the commit fails for sure, the table is unchanged and the new files are deleted; when its
 * outcome is unknown ({@link CommitStateUnknownException}) nothing is deleted, since the files may
 * be part of the table.
 */
@Internal
public final class RewriteCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(RewriteCommitter.class);

    private final Table table;
    private final boolean useStartingSequenceNumber;
    private final Runnable beforeCommit;
    private final String branch;

    /**
     * @param table the table to commit to
     * @param useStartingSequenceNumber give new files the starting snapshot's data sequence number
     * @param beforeCommit run right before Iceberg's commit (tests inject concurrent commits here)
     */
    public RewriteCommitter(Table table, boolean useStartingSequenceNumber, Runnable beforeCommit) {
        this(table, useStartingSequenceNumber, beforeCommit, null);
    }

    /**
     * @param table the table to commit to
     * @param useStartingSequenceNumber give new files the starting snapshot's data sequence number
     * @param beforeCommit run right before Iceberg's commit (tests inject concurrent commits here)
     * @param branch the branch to commit to; null for the main branch
     */
    public RewriteCommitter(
            Table table, boolean useStartingSequenceNumber, Runnable beforeCommit, String branch) {
        this.table = Objects.requireNonNull(table, "table");
        this.useStartingSequenceNumber = useStartingSequenceNumber;
        this.beforeCommit = beforeCommit == null ? () -> {} : beforeCommit;
        this.branch = branch == null ? SnapshotRef.MAIN_BRANCH : branch;
    }

    /**
     * Replaces the plan's data files (and dangling deletes) with {@code added}.
     *
     * @return the snapshot the commit created
     * @throws ValidationException if a concurrent commit conflicts (the table is unchanged)
     * @throws CommitFailedException if the commit failed otherwise (the table is unchanged)
     * @throws CommitStateUnknownException if the outcome is unknown (nothing was deleted)
     */
    public Snapshot commit(PlannedRewrite plan, Collection<DataFile> added) {
        Snapshot start = plan.startingSnapshot();
        RewriteFiles rewrite =
                table.newRewrite().validateFromSnapshot(start.snapshotId()).toBranch(branch);
        if (useStartingSequenceNumber) {
            rewrite.dataSequenceNumber(start.sequenceNumber());
        }
        plan.rewrittenDataFiles().forEach(rewrite::deleteFile);
        for (DeleteFile dangling : plan.danglingDeleteFiles()) {
            rewrite.deleteFile(dangling);
        }
        added.forEach(rewrite::addFile);
        try {
            beforeCommit.run();
            rewrite.commit();
        } catch (CommitStateUnknownException unknown) {
            throw unknown;
        } catch (ValidationException conflict) {
            deleteQuietly(table, added, conflict);
            throw new ValidationException(
                    conflict,
                    "Cannot commit the rewrite of %d data files of table %s: a concurrent commit"
                            + " since snapshot %d conflicts (%s). The table is unchanged and the"
                            + " %d new files were deleted.",
                    plan.rewrittenDataFiles().size(),
                    table.name(),
                    start.snapshotId(),
                    conflict.getMessage(),
                    added.size());
        } catch (RuntimeException failure) {
            deleteQuietly(table, added, failure);
            throw new CommitFailedException(
                    failure,
                    "Cannot commit the rewrite of %d data files of table %s: %s. The table is"
                            + " unchanged and the %d new files were deleted.%s",
                    plan.rewrittenDataFiles().size(),
                    table.name(),
                    failure.getMessage(),
                    added.size(),
                    failure instanceof CommitFailedException
                            ? " Other writers kept committing while Iceberg retried: with"
                                    + " frequent concurrent commits (e.g. short Flink checkpoint"
                                    + " intervals) raise the table property '"
                                    + TableProperties.COMMIT_NUM_RETRIES
                                    + "' (default "
                                    + TableProperties.COMMIT_NUM_RETRIES_DEFAULT
                                    + ")."
                            : "");
        }
        table.refresh();
        return committedSnapshot(start);
    }

    /** The newest replace snapshot after {@code start} in the branch: the one just made. */
    private Snapshot committedSnapshot(Snapshot start) {
        Snapshot current = table.snapshot(branch);
        while (current != null && current.snapshotId() != start.snapshotId()) {
            if (DataOperations.REPLACE.equals(current.operation())) {
                return current;
            }
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        throw new IllegalStateException(
                "The rewrite of table "
                        + table.name()
                        + " committed, but no replace snapshot follows snapshot "
                        + start.snapshotId());
    }

    /** Deletes files that will never be committed; failures are attached to {@code cause}. */
    static void deleteQuietly(Table table, Collection<DataFile> files, Exception cause) {
        for (DataFile file : files) {
            try {
                table.io().deleteFile(file.location());
            } catch (RuntimeException e) {
                LOG.warn("Cannot delete uncommitted rewrite output {}", file.location(), e);
                cause.addSuppressed(e);
            }
        }
    }
}
