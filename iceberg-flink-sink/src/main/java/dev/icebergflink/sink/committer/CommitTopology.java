package dev.icebergflink.sink.committer;

import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.iceberg.io.WriteResult;

/**
 * Builds the global commit step of the sink: the one aggregation per table between the writers and
 * the committer.
 *
 * <p>It exists so that the sink's {@code addPreCommitTopology} is one call: every writer subtask's
 * {@link WriteResult} of a checkpoint goes to a single aggregation operator (parallelism 1), which
 * writes the manifests once and emits exactly one {@link IcebergCommittable} per checkpoint. The
 * output is routed with {@code global()} so that the committable and its summary always reach the
 * same committer subtask, whatever parallelism Flink gives the committer.
 *
 * <p>Each call draws a new run id for the aggregation ({@link CommitOwner}): Flink builds the
 * sink's topology once per submission of a job, and the id then travels in the job graph, so
 * failovers keep it and every new submission (a fresh start, a restore from a savepoint) has its
 * own.
 *
 * <p>The aggregation gets the uid {@link #aggregatorUid} only when {@link
 * CommitterSettings#operatorUids()} says so: Flink rejects uids inside a sink's topology unless the
 * sink transformation has a uid itself, which only the sink knows.
 */
@Internal
public final class CommitTopology {

    /** The uid prefix (role) of the aggregation operator. */
    public static final String AGGREGATOR_ROLE = "iceberg-aggregator";

    private CommitTopology() {}

    /**
     * Adds the aggregation after the writers.
     *
     * @param writeResults the writers' output ({@code CommittableSummary} and {@code
     *     CommittableWithLineage} messages carrying one {@link WriteResult} per subtask and
     *     checkpoint)
     * @param settings the commit settings; its uid suffix names the operator
     * @return one committable message pair (summary + committable) per checkpoint
     */
    public static DataStream<CommittableMessage<IcebergCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WriteResult>> writeResults, CommitterSettings settings) {
        String uid = aggregatorUid(settings);
        SingleOutputStreamOperator<CommittableMessage<IcebergCommittable>> aggregated =
                writeResults
                        .global()
                        .transform(
                                uid,
                                CommittableMessageTypeInfo.of(IcebergCommittableSerializer::new),
                                new WriteResultAggregator(settings, UUID.randomUUID().toString()))
                        .setParallelism(1)
                        .setMaxParallelism(1);
        if (settings.operatorUids()) {
            aggregated.uid(uid);
        }
        return aggregated.global();
    }

    /**
     * The stable uid of the aggregation operator: {@code iceberg-aggregator-<suffix>}.
     *
     * @throws IllegalArgumentException when the settings carry no uid suffix (the sink always gives
     *     one: {@code uid-suffix}, else the table name)
     */
    public static String aggregatorUid(CommitterSettings settings) {
        String suffix = settings.uidSuffix();
        if (suffix.isEmpty()) {
            throw new IllegalArgumentException(
                    "The commit topology needs a uid suffix in its CommitterSettings (the sink"
                            + " passes 'uid-suffix', else the table name)");
        }
        return AGGREGATOR_ROLE + "-" + suffix;
    }
}
