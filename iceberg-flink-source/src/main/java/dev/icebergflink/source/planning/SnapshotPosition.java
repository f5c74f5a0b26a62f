package dev.icebergflink.source.planning;

import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Snapshot;

/**
 * How far a source has consumed the table's history: the last snapshot whose appends are planned.
 *
 * <p>It exists as the enumerator's checkpointed position: where the next planning round starts. A
 * {@code null} {@link #snapshotId()} means "nothing consumed yet": the next round plans every
 * append from the oldest ancestor of the head on.
 *
 * @param snapshotId the last consumed snapshot, or {@code null} before the first snapshot
 * @param timestampMillis that snapshot's commit time, or {@code null} with it
 */
@Internal
public record SnapshotPosition(Long snapshotId, Long timestampMillis) {

    /** The position before any snapshot: every append is still to be read. */
    public static SnapshotPosition beforeFirstSnapshot() {
        return new SnapshotPosition(null, null);
    }

    /** The position after {@code snapshot} (or before any, when it is {@code null}). */
    public static SnapshotPosition after(Snapshot snapshot) {
        return snapshot == null
                ? beforeFirstSnapshot()
                : new SnapshotPosition(snapshot.snapshotId(), snapshot.timestampMillis());
    }

    /** Whether nothing has been consumed yet. */
    public boolean isBeforeFirstSnapshot() {
        return snapshotId == null;
    }
}
