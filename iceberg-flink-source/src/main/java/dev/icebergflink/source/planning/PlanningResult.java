package dev.icebergflink.source.planning;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.List;

/**
 * The outcome of one planning round: the splits found and the position after them.
 *
 * @param fromPosition the position the round started from ({@code null} for the first round)
 * @param toPosition the position after this round's snapshots
 * @param splits the new splits, in planning order
 * @param headTimestampMillis commit time of the table (or branch) head seen by the round, or {@code
 *     null} for an empty table; with {@code toPosition} it gives the enumeration lag
 */
public record PlanningResult(
        SnapshotPosition fromPosition,
        SnapshotPosition toPosition,
        List<IcebergSourceSplit> splits,
        Long headTimestampMillis) {

    public PlanningResult {
        splits = List.copyOf(splits);
    }

    /** How far the position is behind the head, in milliseconds (0 when caught up). */
    public long lagMillis() {
        if (headTimestampMillis == null || toPosition.timestampMillis() == null) {
            return 0L;
        }
        return Math.max(0L, headTimestampMillis - toPosition.timestampMillis());
    }
}
