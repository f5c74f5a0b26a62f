package dev.icebergflink.sink.committer;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Finds the {@link CommitProgress} of a job/operator pair in a branch: walks the branch's ancestry
 * from its head to the newest snapshot whose summary has the pair's {@code flink.job-id} and a
 * matching (or absent) {@code flink.operator-id}.
 *
 * <p>It exists to keep that walk bounded: it remembers, per pair, the head it last walked from and
 * what it found, and stops when it reaches that snapshot again, so each commit only looks at the
 * snapshots made since the previous one. Only the first lookup of a pair (after a start or a
 * restore) may walk further, until it finds the pair's newest commit (or the root when the pair
 * never committed). A branch that was rolled back below the remembered head is walked again in
 * full, which is correct because the remembered head is then not met.
 */
final class CommitProgressLookup {

    private final Map<Key, Remembered> remembered = new HashMap<>();

    /** The progress of (jobId, operatorId) in {@code branch} of {@code table} as last refreshed. */
    CommitProgress lookup(Table table, String branch, String jobId, String operatorId) {
        Key key = new Key(jobId, operatorId);
        Snapshot head = table.snapshot(branch);
        if (head == null) {
            return CommitProgress.NONE;
        }
        Remembered known = remembered.get(key);
        CommitProgress progress = CommitProgress.NONE;
        Snapshot current = head;
        while (current != null) {
            if (known != null && current.snapshotId() == known.headSnapshotId) {
                progress = known.progress;
                break;
            }
            if (matches(current.summary(), jobId, operatorId)) {
                progress = CommitProgress.fromSummary(current.summary());
                break;
            }
            Long parent = current.parentId();
            current = parent == null ? null : table.snapshot(parent);
        }
        remembered.put(key, new Remembered(head.snapshotId(), progress));
        return progress;
    }

    /** Records the progress a commit of ours made, as of the snapshot that commit created. */
    void committed(String jobId, String operatorId, long snapshotId, CommitProgress progress) {
        remembered.put(new Key(jobId, operatorId), new Remembered(snapshotId, progress));
    }

    private static boolean matches(Map<String, String> summary, String jobId, String operatorId) {
        if (summary == null || !jobId.equals(summary.get(CommitSummaryKeys.JOB_ID))) {
            return false;
        }
        String op = summary.get(CommitSummaryKeys.OPERATOR_ID);
        return op == null || op.equals(operatorId);
    }

    private static final class Key {
        private final String jobId;
        private final String operatorId;

        Key(String jobId, String operatorId) {
            this.jobId = jobId;
            this.operatorId = operatorId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key
                    && ((Key) o).jobId.equals(jobId)
                    && ((Key) o).operatorId.equals(operatorId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(jobId, operatorId);
        }
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
