package dev.icebergflink.maintenance.eqdelete;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;

/**
 * What one run of the equality-delete conversion will do, decided from one snapshot: which live
 * equality delete files the commit removes, and the units the workers scan to find the rows those
 * files delete.
 *
 * <p>It exists so that planning (pure, testable against a table without Flink) and execution (the
 * workers and the commit) hand over one immutable value. A removed equality delete that applies to
 * no data file (every row it could delete is already gone) needs no unit: the commit just drops it.
 *
 * @param startingSnapshot the snapshot planned from; null for a table without snapshots
 * @param removedEqualityDeletes the equality delete files the commit removes, with their data
 *     sequence numbers
 * @param units the work units, each scanned by one worker
 */
@Internal
public record PlannedConversion(
        Snapshot startingSnapshot,
        List<DeleteFile> removedEqualityDeletes,
        List<ConversionUnit> units) {

    public PlannedConversion {
        removedEqualityDeletes = List.copyOf(removedEqualityDeletes);
        units = List.copyOf(units);
    }

    /** A plan that does nothing. */
    static PlannedConversion nothing(Snapshot startingSnapshot) {
        return new PlannedConversion(startingSnapshot, List.of(), List.of());
    }

    /** Whether the run has nothing to do. */
    public boolean isEmpty() {
        return removedEqualityDeletes.isEmpty();
    }
}
