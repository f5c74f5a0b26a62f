package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The checkpointed state of an Iceberg source enumerator: how far planning got in the table's
 * history, the cursor of a paged scan still being handed out, and the splits planned but not yet
 * assigned.
 *
 * <p>Splits assigned to readers are not here; readers checkpoint them with their positions.
 *
 * @param position the position after the last planning round, or {@code null} when the first round
 *     has not completed (a restore plans it again)
 * @param pagedScan the paged scan whose remaining splits are still to be planned, or {@code null}
 * @param pendingSplits the planned, unassigned splits in assignment order
 */
public record IcebergEnumeratorState(
        SnapshotPosition position,
        ScanCursor pagedScan,
        Collection<IcebergSourceSplit> pendingSplits) {

    public IcebergEnumeratorState {
        pendingSplits = List.copyOf(Objects.requireNonNull(pendingSplits, "pendingSplits"));
    }

    /** A state without a paged scan. */
    public IcebergEnumeratorState(
            SnapshotPosition position, Collection<IcebergSourceSplit> pendingSplits) {
        this(position, null, pendingSplits);
    }
}
