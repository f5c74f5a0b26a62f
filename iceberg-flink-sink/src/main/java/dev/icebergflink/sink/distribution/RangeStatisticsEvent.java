package dev.icebergflink.sink.distribution;

import java.util.List;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

/**
 * What one statistics subtask saw between two checkpoints: how many records, and a bounded
 * reservoir sample of their sort keys ({@link SortKeyCodec} bytes). Sent to the {@link
 * RangeStatisticsCoordinator} when the subtask takes checkpoint {@code checkpointId}.
 */
final class RangeStatisticsEvent implements OperatorEvent {

    private static final long serialVersionUID = 1L;

    final long checkpointId;
    final long records;
    final List<byte[]> sample;

    RangeStatisticsEvent(long checkpointId, long records, List<byte[]> sample) {
        this.checkpointId = checkpointId;
        this.records = records;
        this.sample = List.copyOf(sample);
    }

    @Override
    public String toString() {
        return "RangeStatisticsEvent{checkpoint="
                + checkpointId
                + ", records="
                + records
                + ", sampled="
                + sample.size()
                + "}";
    }
}
