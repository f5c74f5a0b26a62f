package dev.icebergflink.sink;

import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.compat.CommittableMessages;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.util.Collector;

/**
 * Turns what the committer passes on after committing into the ids of the committed checkpoints,
 * the signal table maintenance after the sink's commits listens to. Summaries are skipped; a
 * checkpoint id appears once per committed committable.
 */
@Internal
final class CommittedCheckpoints
        implements FlatMapFunction<CommittableMessage<IcebergCommittable>, Long> {

    private static final long serialVersionUID = 1L;

    @Override
    public void flatMap(CommittableMessage<IcebergCommittable> message, Collector<Long> out) {
        if (message instanceof CommittableWithLineage<?>) {
            out.collect(CommittableMessages.checkpointIdOrEoi(message));
        }
    }
}
