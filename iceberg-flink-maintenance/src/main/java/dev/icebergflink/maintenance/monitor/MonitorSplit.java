package dev.icebergflink.maintenance.monitor;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * The one split of the {@link TableChangeSource}: how far the table's history has been reported.
 *
 * @param lastSnapshotId the newest snapshot whose changes were emitted, or {@link #NONE} before the
 *     first look at the table
 */
@Internal
public record MonitorSplit(long lastSnapshotId) implements SourceSplit {

    /** No snapshot was reported yet. */
    public static final long NONE = -1L;

    @Override
    public String splitId() {
        return "table-changes";
    }
}
