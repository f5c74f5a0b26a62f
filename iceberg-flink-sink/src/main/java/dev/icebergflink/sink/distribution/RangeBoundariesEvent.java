package dev.icebergflink.sink.distribution;

import java.util.List;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

/**
 * The coordinator's current range boundaries ({@link SortKeyCodec} bytes), broadcast to every
 * statistics subtask; computed from the statistics of checkpoint {@code checkpointId}.
 */
final class RangeBoundariesEvent implements OperatorEvent {

    private static final long serialVersionUID = 1L;

    final long checkpointId;
    final List<byte[]> boundaries;

    RangeBoundariesEvent(long checkpointId, List<byte[]> boundaries) {
        this.checkpointId = checkpointId;
        this.boundaries = List.copyOf(boundaries);
    }

    @Override
    public String toString() {
        return "RangeBoundariesEvent{checkpoint="
                + checkpointId
                + ", boundaries="
                + boundaries.size()
                + "}";
    }
}
