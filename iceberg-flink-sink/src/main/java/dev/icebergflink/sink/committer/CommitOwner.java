package dev.icebergflink.sink.committer;

import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.SnapshotUpdate;

/**
 * Who produced a committable, and so which snapshots record its progress: the Flink job id, the
 * aggregation operator id and the sink's run id.
 *
 * <p>It exists because the job id alone does not say which run of a job made a commit. In
 * application mode with high availability, and wherever users fix the job id, every submission of a
 * job has the same id: a job restored from an older savepoint, or started afresh, would find the
 * commits of the earlier submission under its own name and take its new checkpoints for committed
 * ones. The run id ({@link CommitSummaryKeys#RUN_ID}) is drawn anew each time the sink's topology
 * is built, i.e. once per submission, and travels in the job graph, so that failovers inside one
 * submission (TaskManager loss, JobManager failover, which recover the stored job graph) keep it,
 * while every new submission has its own. Committables restored from state keep the run id they
 * were produced under, so they are still recognised as committed.
 *
 * <p>Committables restored from state written before run ids existed have an empty run id; they
 * match only snapshots that carry no run id, i.e. the commits made by that older sink.
 */
@Internal
public final class CommitOwner {

    private final String jobId;
    private final String operatorId;
    private final String runId;

    /** An owner; {@code runId} is empty for committables from state without run ids. */
    public CommitOwner(String jobId, String operatorId, String runId) {
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.operatorId = Objects.requireNonNull(operatorId, "operatorId");
        this.runId = Objects.requireNonNull(runId, "runId");
    }

    /** The Flink job id the data was written under. */
    public String jobId() {
        return jobId;
    }

    /** The id of the aggregation operator that wrote the manifests. */
    public String operatorId() {
        return operatorId;
    }

    /** The sink's run id, or the empty string for state written before run ids existed. */
    public String runId() {
        return runId;
    }

    /**
     * Whether a snapshot summary records a commit of this owner. A snapshot without an operator id
     * counts for the job's operators (older writers of these keys did not record it); the run id
     * must be the same, and an owner without a run id matches only snapshots without one.
     */
    boolean madeCommit(Map<String, String> summary) {
        if (summary == null || !jobId.equals(summary.get(CommitSummaryKeys.JOB_ID))) {
            return false;
        }
        String operator = summary.get(CommitSummaryKeys.OPERATOR_ID);
        if (operator != null && !operator.equals(operatorId)) {
            return false;
        }
        return runId.equals(summary.getOrDefault(CommitSummaryKeys.RUN_ID, ""));
    }

    /** Records this owner in the summary of the snapshot {@code update} makes. */
    void recordIn(SnapshotUpdate<?> update) {
        update.set(CommitSummaryKeys.JOB_ID, jobId);
        update.set(CommitSummaryKeys.OPERATOR_ID, operatorId);
        if (!runId.isEmpty()) {
            update.set(CommitSummaryKeys.RUN_ID, runId);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommitOwner
                && ((CommitOwner) o).jobId.equals(jobId)
                && ((CommitOwner) o).operatorId.equals(operatorId)
                && ((CommitOwner) o).runId.equals(runId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, operatorId, runId);
    }

    @Override
    public String toString() {
        return "job="
                + jobId
                + ", operator="
                + operatorId
                + (runId.isEmpty() ? "" : ", run=" + runId);
    }
}
