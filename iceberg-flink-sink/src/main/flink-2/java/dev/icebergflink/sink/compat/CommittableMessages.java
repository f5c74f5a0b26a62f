package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;

/**
 * Builds and reads Sink V2 committable messages.
 *
 * <p>It exists because {@link CommittableMessage} differs between Flink 1.20 and 2.x: 2.x reads the
 * checkpoint id with {@code getCheckpointId()} (a {@code long}, {@link CommittableMessage#EOI} at
 * end of input) and has a {@link CommittableSummary} constructor without a pending count; 1.20 has
 * {@code getCheckpointIdOrEOI()} and only the constructor with pending committables.
 */
@Internal
public final class CommittableMessages {

    private CommittableMessages() {}

    /** The message's checkpoint id, or {@link CommittableMessage#EOI} at end of input. */
    public static long checkpointIdOrEoi(CommittableMessage<?> message) {
        return message.getCheckpointId();
    }

    /** A summary announcing committables of one checkpoint from one subtask. */
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
                numberOfFailedCommittables);
    }
}
