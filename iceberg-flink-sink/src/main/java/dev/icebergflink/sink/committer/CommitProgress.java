package dev.icebergflink.sink.committer;

import java.util.Map;

/**
 * How far one job/operator pair has committed into a branch, as read from the newest snapshot of
 * the branch ancestry that carries its {@link CommitSummaryKeys summary keys}.
 *
 * <p>It exists to keep the exactly-once rule in one place: {@link #covers(IcebergCommittable)}.
 */
final class CommitProgress {

    /** No commit of the job/operator pair found. */
    static final CommitProgress NONE = new CommitProgress(-1L, -1L, false);

    private final long maxCheckpointId;
    private final long endOfInputCheckpointId;
    private final boolean found;

    private CommitProgress(long maxCheckpointId, long endOfInputCheckpointId, boolean found) {
        this.maxCheckpointId = maxCheckpointId;
        this.endOfInputCheckpointId = endOfInputCheckpointId;
        this.found = found;
    }

    /** The progress a snapshot summary records (-1 for a missing or unreadable id). */
    static CommitProgress fromSummary(Map<String, String> summary) {
        return new CommitProgress(
                parse(summary.get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID)),
                parse(summary.get(CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID)),
                true);
    }

    /** The progress after committing {@code committable} on top of this one. */
    CommitProgress after(IcebergCommittable committable) {
        if (committable.endOfInput()) {
            return new CommitProgress(
                    Math.max(maxCheckpointId, committable.checkpointId() - 1),
                    committable.checkpointId(),
                    true);
        }
        return new CommitProgress(
                Math.max(maxCheckpointId, committable.checkpointId()),
                endOfInputCheckpointId,
                true);
    }

    /**
     * Whether the committable's data is already in the branch. A regular checkpoint C is committed
     * when C is at most the recorded max; an end-of-input committable E also when E is at most the
     * recorded end-of-input id.
     */
    boolean covers(IcebergCommittable committable) {
        long id = committable.checkpointId();
        if (id <= maxCheckpointId) {
            return true;
        }
        return committable.endOfInput() && id <= endOfInputCheckpointId;
    }

    /** Whether any commit of the pair was found. */
    boolean found() {
        return found;
    }

    long maxCheckpointId() {
        return maxCheckpointId;
    }

    long endOfInputCheckpointId() {
        return endOfInputCheckpointId;
    }

    private static long parse(String value) {
        if (value == null) {
            return -1L;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1L;
        }
    }

    @Override
    public String toString() {
        return found
                ? "max checkpoint "
                        + maxCheckpointId
                        + (endOfInputCheckpointId >= 0
                                ? ", end of input " + endOfInputCheckpointId
                                : "")
                : "nothing committed";
    }
}
