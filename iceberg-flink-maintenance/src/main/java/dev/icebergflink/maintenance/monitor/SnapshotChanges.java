package dev.icebergflink.maintenance.monitor;

import dev.icebergflink.maintenance.api.TableChange;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the commits after a known snapshot added, read from the snapshots' summaries (no manifest is
 * read): the change the maintenance triggers count.
 *
 * <p>Commits that only replace files ({@code replace} snapshots: compaction, maintenance's own
 * rewrites) are not changes: counting them would make a rewrite trigger the next one. At most
 * {@code maxReadBack} snapshots are read, newest first; older ones are skipped (the first look of a
 * topology without state, or after a long pause).
 */
@Internal
public final class SnapshotChanges {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotChanges.class);

    private SnapshotChanges() {}

    /**
     * The changes of the snapshots from {@code current} back to (not including) {@code
     * lastSnapshotId}.
     *
     * @param table the table, refreshed
     * @param current the table's current snapshot
     * @param lastSnapshotId the last snapshot already counted, or {@link MonitorSplit#NONE}
     * @param maxReadBack how many snapshots to read at most
     */
    public static TableChange since(
            Table table, Snapshot current, long lastSnapshotId, int maxReadBack) {
        List<Snapshot> newer = new ArrayList<>();
        Snapshot snapshot = current;
        while (snapshot != null
                && snapshot.snapshotId() != lastSnapshotId
                && newer.size() < maxReadBack) {
            newer.add(snapshot);
            snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
        }
        if (snapshot != null
                && snapshot.snapshotId() != lastSnapshotId
                && lastSnapshotId != MonitorSplit.NONE) {
            LOG.info(
                    "More than {} commits to table {} since the last look; the older ones are not"
                            + " counted",
                    maxReadBack,
                    table.name());
        }
        TableChange change = TableChange.empty();
        for (Snapshot s : newer) {
            if (!DataOperations.REPLACE.equals(s.operation())) {
                change = change.merge(TableChange.of(s));
            }
        }
        return change;
    }
}
