package dev.icebergflink.sink.committer;

import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committer's view of a table's operations: before every metadata commit it checks, against the
 * very metadata the commit was applied to, that no snapshot made since the committer's progress
 * lookup already holds the committable being committed.
 *
 * <p>It exists because Iceberg's commit is a retry loop: on a conflict it refreshes the table,
 * applies the update again on the new head and commits that ({@code commit.retry.*}). The
 * committer's own lookup runs once, before the loop. If an earlier attempt of the same committable
 * lands in between (an attempt from before a restart that a REST server was still processing, a
 * client timeout that surfaced as an unknown commit state, an HTTP-level resend answered with 409
 * after the first send was applied), the loop would stack the same files on top of themselves. This
 * check runs inside the loop, on each attempt's base, and aborts the commit with {@link
 * AlreadyCommittedException} instead.
 *
 * <p>Cleanup: {@link #requireStrictCleanup()} is always true, so Iceberg deletes the files an
 * aborted commit wrote only for failures that are known to be clean. A commit aborted here may have
 * had an earlier attempt of its own applied (the resend case), whose manifests the table now
 * references; deleting them would break the table. Files left behind are unreferenced and go with
 * orphan-file cleanup.
 *
 * <p>It is armed by {@link #expect} around one commit of the committer and does nothing otherwise.
 */
final class ProgressCheckedOperations extends ForwardingTableOperations {

    private static final Logger LOG = LoggerFactory.getLogger(ProgressCheckedOperations.class);

    private Expectation expected;

    private ProgressCheckedOperations(TableOperations delegate) {
        super(delegate);
    }

    /**
     * A table like {@code table} whose commits are checked; the operations to arm are returned by
     * {@link #of(Table)}. Tables without accessible operations are returned unchanged (with a
     * warning): their commits then rely on the committer's lookup alone.
     */
    static Table wrap(Table table) {
        if (!(table instanceof HasTableOperations)) {
            LOG.warn(
                    "Table {} ({}) exposes no TableOperations; the sink cannot re-check its"
                            + " progress inside Iceberg's commit retries",
                    table.name(),
                    table.getClass().getName());
            return table;
        }
        TableOperations ops = ((HasTableOperations) table).operations();
        if (ops instanceof ProgressCheckedOperations) {
            return table;
        }
        ProgressCheckedOperations checked = new ProgressCheckedOperations(ops);
        return table instanceof BaseTable
                ? new BaseTable(checked, table.name(), ((BaseTable) table).reporter())
                : new BaseTable(checked, table.name());
    }

    /** The checked operations of a table from {@link #wrap}, or null when it has none. */
    static ProgressCheckedOperations of(Table table) {
        if (table instanceof HasTableOperations
                && ((HasTableOperations) table).operations() instanceof ProgressCheckedOperations) {
            return (ProgressCheckedOperations) ((HasTableOperations) table).operations();
        }
        return null;
    }

    /**
     * Arms the check for the next commits until {@link #clear()}: {@code committable} must not be
     * covered by a commit of its owner to {@code branch} made after snapshot {@code checkedHeadId}
     * (the head the committer's lookup started from; -1 when the branch had none).
     */
    void expect(IcebergCommittable committable, String branch, long checkedHeadId) {
        this.expected = new Expectation(committable, branch, checkedHeadId);
    }

    /** Disarms the check. */
    void clear() {
        this.expected = null;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
        Expectation check = expected;
        if (check != null && base != null) {
            check.verify(base);
        }
        super.commit(base, metadata);
    }

    @Override
    public boolean requireStrictCleanup() {
        return true;
    }

    private static final class Expectation {
        private final IcebergCommittable committable;
        private final String branch;
        private final long checkedHeadId;

        Expectation(IcebergCommittable committable, String branch, long checkedHeadId) {
            this.committable = committable;
            this.branch = branch;
            this.checkedHeadId = checkedHeadId;
        }

        void verify(TableMetadata base) {
            SnapshotRef ref = base.ref(branch);
            if (ref == null) {
                return;
            }
            Snapshot head = base.snapshot(ref.snapshotId());
            CommitProgress landed =
                    CommitProgressLookup.madeSince(
                            head, base::snapshot, committable.owner(), checkedHeadId);
            if (landed.covers(committable)) {
                throw new AlreadyCommittedException(committable, branch, landed);
            }
        }
    }
}
