package dev.icebergflink.source.planning;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The outcome of one planning round: the splits found and the position after them.
 *
 * @param fromPosition the position the round started from ({@code null} for the first round)
 * @param toPosition the position after this round's snapshots
 * @param splits the new splits, in planning order
 * @param headTimestampMillis commit time of the table (or branch) head seen by the round, or {@code
 *     null} for an empty table; with {@code toPosition} it gives the enumeration lag
 * @param pagedScan a scan of this round whose splits are not in {@code splits} but are to be
 *     fetched page by page ({@link SplitPageSource}), or {@code null}
 */
@Internal
public record PlanningResult(
        SnapshotPosition fromPosition,
        SnapshotPosition toPosition,
        List<IcebergSourceSplit> splits,
        Long headTimestampMillis,
        ScanCursor pagedScan) {

    public PlanningResult {
        splits = List.copyOf(splits);
    }

    /** A result with all its splits planned (no paged scan). */
    public PlanningResult(
            SnapshotPosition fromPosition,
            SnapshotPosition toPosition,
            List<IcebergSourceSplit> splits,
            Long headTimestampMillis) {
        this(fromPosition, toPosition, splits, headTimestampMillis, null);
    }

    /** How far the position is behind the head, in milliseconds (0 when caught up). */
    public long lagMillis() {
        if (headTimestampMillis == null || toPosition.timestampMillis() == null) {
            return 0L;
        }
        return Math.max(0L, headTimestampMillis - toPosition.timestampMillis());
    }
}
