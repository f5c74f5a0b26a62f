package dev.icebergflink.sink.committer;

import org.apache.flink.annotation.Internal;

/**
 * The snapshot-summary keys through which the sink records who committed what.
 *
 * <p>The first three are the keys of Iceberg's own Flink connector, with the same meaning, so that
 * tools reading them and jobs moving between connectors keep working.
 */
@Internal
public final class CommitSummaryKeys {

    /** The Flink job id under which the committed data was produced. */
    public static final String JOB_ID = "flink.job-id";

    /** The id of the sink's aggregation operator that produced the committed data. */
    public static final String OPERATOR_ID = "flink.operator-id";

    /**
     * The highest regular checkpoint id whose data is committed for this job and operator. For an
     * end-of-input commit it is the checkpoint before the end of input, never {@code
     * Long.MAX_VALUE}.
     */
    public static final String MAX_COMMITTED_CHECKPOINT_ID = "flink.max-committed-checkpoint-id";

    /**
     * Ours: set only on the commit of the end of bounded input, to the id Flink gave those final
     * results; it lets a repeated end-of-input commit be recognised without claiming later
     * checkpoint ids as committed.
     */
    public static final String END_OF_INPUT_CHECKPOINT_ID = "flink.end-of-input-checkpoint-id";

    /**
     * Ours: a random id the sink draws each time its job is submitted (a fresh start, or a restore
     * from a savepoint or checkpoint); failovers inside one submission keep it. Progress is looked
     * up per job, operator and run id, so that a job submitted again under the same job id (fixed
     * job ids in application mode) neither takes the checkpoints of an earlier run for its own nor
     * skips its new ones.
     */
    public static final String RUN_ID = "flink.run-id";

    private CommitSummaryKeys() {}
}
