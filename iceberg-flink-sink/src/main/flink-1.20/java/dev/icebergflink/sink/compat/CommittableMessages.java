package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;

/**
 * Builds and reads Sink V2 committable messages.
 *
 * <p>It exists because {@link CommittableMessage} differs between Flink 1.20 and 2.x: 1.20 reads
 * the checkpoint id with {@code getCheckpointIdOrEOI()} ({@code getCheckpointId()} is an {@code
 * OptionalLong} there) and its {@link CommittableSummary} constructor also takes the number of
 * pending committables, which Flink 2.x dropped.
 */
@Internal
public final class CommittableMessages {

    private CommittableMessages() {}

    /** The message's checkpoint id, or {@link CommittableMessage#EOI} at end of input. */
    public static long checkpointIdOrEoi(CommittableMessage<?> message) {
        return message.getCheckpointIdOrEOI();
    }

    /**
     * A summary announcing committables of one checkpoint from one subtask; all of them count as
     * pending, as in the summaries Flink 1.20's own writer operator emits.
     */
    public static <T> CommittableSummary<T> summary(
            int subtaskId,
            int numberOfSubtasks,
            long checkpointId,
            int numberOfCommittables,
            int numberOfFailedCommittables) {
        return new CommittableSummary<>(
                subtaskId,
                numberOfSubtasks,
                checkpointId,
                numberOfCommittables,
                numberOfCommittables,
                numberOfFailedCommittables);
    }
}
