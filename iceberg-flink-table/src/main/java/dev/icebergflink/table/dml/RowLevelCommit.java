package dev.icebergflink.table.dml;

import org.apache.flink.annotation.Internal;
import org.apache.iceberg.IsolationLevel;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one commit of a row-level statement: a validated {@link RowDelta} on format v2 and v3 tables
 * (new delete files and deletion vectors, removed earlier vectors, new rows), a validated {@link
 * OverwriteFiles} on format v1 (rewritten files replace the originals).
 *
 * <p>The commit is validated against every commit made after the snapshot the statement read,
 * limited to the statement's conflict filter: the data files it deletes from must still exist, no
 * new delete may touch them, and under serializable isolation (Iceberg's default of {@code
 * write.delete.isolation-level} / {@code write.update.isolation-level}) no matching row may have
 * been added. A failed validation deletes the statement's files and fails with a {@link
 * DmlConflictException}; the table stays as the other commit left it.
 *
 * <p>The snapshot carries the statement's id ({@link DmlPlan#STATEMENT_ID_PROPERTY}): a committer
 * that runs again after a failover finds it among the snapshots after the one read and does not
 * commit twice. A statement that matched no row commits nothing.
 */
@Internal
final class RowLevelCommit {

    private static final Logger LOG = LoggerFactory.getLogger(RowLevelCommit.class);

    private final DmlPlan plan;

    RowLevelCommit(DmlPlan plan) {
        this.plan = plan;
    }

    /** Commits {@code result} to {@code table}; returns the new snapshot's id, or null for none. */
    Long commit(Table table, DmlWriteResult result) {
        table.refresh();
        Snapshot earlier = committedBefore(table);
        if (earlier != null) {
            LOG.info(
                    "Statement {} on table {} was committed before as snapshot {}; not again",
                    plan.statementId(),
                    plan.tableName(),
                    earlier.snapshotId());
            // the files may be the committed ones (a re-run committer gets the same results):
            // leave any uncommitted ones to orphan file removal
            return earlier.snapshotId();
        }
        if (result.isEmpty()) {
            return null;
        }
        SnapshotUpdate<?> update =
                plan.formatVersion() == 1 ? overwrite(table, result) : rowDelta(table, result);
        update.set(DmlPlan.STATEMENT_ID_PROPERTY, plan.statementId());
        try {
            DmlTestHooks.runBeforeCommit(table);
            update.commit();
        } catch (ValidationException e) {
            deleteQuietly(table, result);
            throw new DmlConflictException(
                    String.format(
                            "%s on table %s failed: the table changed since the statement read"
                                    + " snapshot %s (%s); nothing was written, run the statement"
                                    + " again",
                            plan.operation(),
                            plan.tableName(),
                            plan.scanSnapshotId(),
                            e.getMessage()),
                    e);
        } catch (CommitStateUnknownException e) {
            // the files may be part of the table now: keep them
            throw e;
        } catch (RuntimeException e) {
            deleteQuietly(table, result);
            throw e;
        }
        table.refresh();
        return table.currentSnapshot().snapshotId();
    }

    private RowDelta rowDelta(Table table, DmlWriteResult result) {
        RowDelta delta = table.newRowDelta();
        result.addedDataFiles().forEach(delta::addRows);
        result.addedDeleteFiles().forEach(delta::addDeletes);
        result.removedDeleteFiles().forEach(delta::removeDeletes);
        if (plan.scanSnapshotId() != null) {
            delta.validateFromSnapshot(plan.scanSnapshotId());
        }
        delta.conflictDetectionFilter(plan.conflictFilter())
                .validateDataFilesExist(result.referencedDataFiles())
                .validateDeletedFiles()
                .validateNoConflictingDeleteFiles();
        if (plan.isolation() == IsolationLevel.SERIALIZABLE) {
            delta.validateNoConflictingDataFiles();
        }
        return delta;
    }

    private OverwriteFiles overwrite(Table table, DmlWriteResult result) {
        OverwriteFiles overwrite = table.newOverwrite();
        result.removedDataFiles().forEach(overwrite::deleteFile);
        result.addedDataFiles().forEach(overwrite::addFile);
        if (plan.scanSnapshotId() != null) {
            overwrite.validateFromSnapshot(plan.scanSnapshotId());
        }
        overwrite.conflictDetectionFilter(plan.conflictFilter()).validateNoConflictingDeletes();
        if (plan.isolation() == IsolationLevel.SERIALIZABLE) {
            overwrite.validateNoConflictingData();
        }
        return overwrite;
    }

    /** The snapshot after the one read that carries this statement's id, or null. */
    private Snapshot committedBefore(Table table) {
        Snapshot snapshot = table.currentSnapshot();
        while (snapshot != null) {
            if (plan.scanSnapshotId() != null && snapshot.snapshotId() == plan.scanSnapshotId()) {
                return null;
            }
            if (plan.statementId().equals(snapshot.summary().get(DmlPlan.STATEMENT_ID_PROPERTY))) {
                return snapshot;
            }
            snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
        }
        return null;
    }

    /** Deletes the files the statement wrote, best effort (they are in no snapshot). */
    static void deleteQuietly(Table table, DmlWriteResult result) {
        for (String location : result.writtenLocations()) {
            try {
                table.io().deleteFile(location);
            } catch (RuntimeException e) {
                LOG.warn("Could not delete uncommitted file {}", location, e);
            }
        }
    }
}
