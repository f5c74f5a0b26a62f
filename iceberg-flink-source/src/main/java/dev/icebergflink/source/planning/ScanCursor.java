package dev.icebergflink.source.planning;

import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * Where a paged scan stands: which scan it is (a full scan of one snapshot, or the appends of a
 * snapshot range) and how many of its splits were already handed to the enumerator.
 *
 * <p>It exists so that the enumerator checkpoints a small cursor instead of every split of a huge
 * initial scan (checkpoints of a state holding millions of splits are slow and large). Planning a
 * given scan is deterministic (the same snapshot and options give the same split sequence), so a
 * restore plans the scan again and skips the first {@link #producedSplits()} splits; {@link
 * #lastSplitId()} lets it check that the skipped prefix ends where the checkpointed one did.
 *
 * @param kind what is scanned
 * @param fromSnapshotId for {@link Kind#APPENDS}: the exclusive start, or {@code null} for the
 *     oldest ancestor on; {@code null} for {@link Kind#TABLE}
 * @param toSnapshotId the scanned snapshot ({@link Kind#TABLE}) or the inclusive end of the range
 * @param producedSplits how many splits of the scan the enumerator already received
 * @param lastSplitId the id of the last received split, or {@code null} when none was
 */
@Internal
public record ScanCursor(
        Kind kind,
        Long fromSnapshotId,
        long toSnapshotId,
        long producedSplits,
        String lastSplitId) {

    /** The kinds of paged scans. */
    public enum Kind {
        /** Every live file of one snapshot. */
        TABLE,
        /** The files added by the append snapshots of a range. */
        APPENDS
    }

    public ScanCursor {
        Objects.requireNonNull(kind, "kind");
        if (producedSplits < 0) {
            throw new IllegalArgumentException(
                    "A scan cursor cannot have produced " + producedSplits + " splits");
        }
        if (kind == Kind.TABLE && fromSnapshotId != null) {
            throw new IllegalArgumentException("A table scan cursor has no start snapshot");
        }
        if ((producedSplits == 0) != (lastSplitId == null)) {
            throw new IllegalArgumentException(
                    "A scan cursor names its last split exactly when it produced some, got "
                            + producedSplits
                            + " split(s) and last split "
                            + lastSplitId);
        }
    }

    /** The start of a full scan of {@code snapshotId}. */
    public static ScanCursor tableScan(long snapshotId) {
        return new ScanCursor(Kind.TABLE, null, snapshotId, 0, null);
    }

    /** The start of a scan of the appends after {@code fromExclusive} up to {@code toInclusive}. */
    public static ScanCursor appendScan(Long fromExclusive, long toInclusive) {
        return new ScanCursor(Kind.APPENDS, fromExclusive, toInclusive, 0, null);
    }

    /** This cursor after {@code count} more splits, the last of them {@code lastId}. */
    public ScanCursor advancedBy(long count, String lastId) {
        if (count == 0) {
            return this;
        }
        return new ScanCursor(kind, fromSnapshotId, toSnapshotId, producedSplits + count, lastId);
    }

    /** Whether both cursors are positions in the same scan. */
    public boolean sameScan(ScanCursor other) {
        return other != null
                && kind == other.kind
                && Objects.equals(fromSnapshotId, other.fromSnapshotId)
                && toSnapshotId == other.toSnapshotId;
    }
}
