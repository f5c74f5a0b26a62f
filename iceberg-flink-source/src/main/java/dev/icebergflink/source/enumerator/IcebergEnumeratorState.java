package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * The checkpointed state of an Iceberg source enumerator: how far planning got in the table's
 * history, the cursor of a paged scan still being handed out, the splits planned but not yet
 * assigned, and which table all that belongs to.
 *
 * <p>Splits assigned to readers are not here; readers checkpoint them with their positions.
 *
 * @param position the position after the last planning round, or {@code null} when the first round
 *     has not completed (a restore plans it again)
 * @param pagedScan the paged scan whose remaining splits are still to be planned, or {@code null}
 * @param pendingSplits the planned, unassigned splits in assignment order
 * @param tableUuid the UUID of the table the read belongs to, or {@code null} when unknown (a state
 *     written before it was kept: a restore adopts the loaded table's)
 */
@Internal
public record IcebergEnumeratorState(
        SnapshotPosition position,
        ScanCursor pagedScan,
        Collection<IcebergSourceSplit> pendingSplits,
        String tableUuid) {

    public IcebergEnumeratorState {
        pendingSplits = List.copyOf(Objects.requireNonNull(pendingSplits, "pendingSplits"));
    }

    /** A state without a table UUID. */
    public IcebergEnumeratorState(
            SnapshotPosition position,
            ScanCursor pagedScan,
            Collection<IcebergSourceSplit> pendingSplits) {
        this(position, pagedScan, pendingSplits, null);
    }

    /** A state without a paged scan and a table UUID. */
    public IcebergEnumeratorState(
            SnapshotPosition position, Collection<IcebergSourceSplit> pendingSplits) {
        this(position, null, pendingSplits, null);
    }
}
