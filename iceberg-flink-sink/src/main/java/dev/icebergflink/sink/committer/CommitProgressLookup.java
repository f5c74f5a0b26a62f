package dev.icebergflink.sink.committer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Finds the {@link CommitProgress} of a {@link CommitOwner} in a branch: walks the branch's
 * ancestry from its head to the newest snapshot whose summary records a commit of that owner.
 *
 * <p>It exists to keep that walk bounded: it remembers, per owner, the head it last walked from and
 * what it found, and stops when it reaches that snapshot again, so each commit only looks at the
 * snapshots made since the previous one. Only the first lookup of an owner (after a start or a
 * restore) may walk further, until it finds the owner's newest commit (or the root when the owner
 * never committed). A branch that was rolled back below the remembered head is walked again in
 * full, which is correct because the remembered head is then not met.
 */
final class CommitProgressLookup {

    private final Map<CommitOwner, Remembered> remembered = new HashMap<>();

    /** The progress of {@code owner} in {@code branch} of {@code table} as last refreshed. */
    CommitProgress lookup(Table table, String branch, CommitOwner owner) {
        Snapshot head = table.snapshot(branch);
        if (head == null) {
            return CommitProgress.NONE;
        }
        Remembered known = remembered.get(owner);
        CommitProgress progress = newestCommit(head, table::snapshot, owner, known);
        remembered.put(owner, new Remembered(head.snapshotId(), progress));
        return progress;
    }

    /** Records the progress a commit of ours made, as of the snapshot that commit created. */
    void committed(CommitOwner owner, long snapshotId, CommitProgress progress) {
        remembered.put(owner, new Remembered(snapshotId, progress));
    }

    /**
     * The progress that snapshots made after {@code checkedHeadId} record for {@code owner}: walks
     * from {@code head} down to that snapshot (exclusive), or to the root when it is not an
     * ancestor; {@link CommitProgress#NONE} when none of them is a commit of the owner.
     *
     * @param snapshots looks snapshots up by id (a table's, or a table metadata's)
     */
    static CommitProgress madeSince(
            Snapshot head,
            LongFunction<Snapshot> snapshots,
            CommitOwner owner,
            long checkedHeadId) {
        return newestCommit(
                head, snapshots, owner, new Remembered(checkedHeadId, CommitProgress.NONE));
    }

    private static CommitProgress newestCommit(
            Snapshot head, LongFunction<Snapshot> snapshots, CommitOwner owner, Remembered stop) {
        Snapshot current = head;
        while (current != null) {
            if (stop != null && current.snapshotId() == stop.headSnapshotId) {
                return stop.progress;
            }
            if (owner.madeCommit(current.summary())) {
                return CommitProgress.fromSummary(current.summary());
            }
            Long parent = current.parentId();
            current = parent == null ? null : snapshots.apply(parent);
        }
        return CommitProgress.NONE;
    }

    private static final class Remembered {
        private final long headSnapshotId;
        private final CommitProgress progress;

        Remembered(long headSnapshotId, CommitProgress progress) {
            this.headSnapshotId = headSnapshotId;
            this.progress = progress;
        }
    }
}
