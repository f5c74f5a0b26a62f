package dev.icebergflink.maintenance.cleanup;

import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the newest snapshot of the main branch that records a Flink checkpoint ({@value
 * #FLINK_CHECKPOINT_KEY}), and everything newer, out of snapshot expiration: a restarted streaming
 * writer finds its last committed checkpoint there, and expiring it could make the writer commit a
 * checkpoint twice.
 */
@Internal
public final class RetainedFlinkCommit {

    /** The summary key under which our sink records the last committed checkpoint. */
    public static final String FLINK_CHECKPOINT_KEY = "flink.max-committed-checkpoint-id";

    private static final Logger LOG = LoggerFactory.getLogger(RetainedFlinkCommit.class);

    private RetainedFlinkCommit() {}

    /**
     * The expiration threshold that keeps the newest Flink commit.
     *
     * @param table the table, refreshed
     * @param requested the user's threshold (epoch millis), or null for the table's default age
     * @return the threshold to pass to {@code expireOlderThan}, or null for Iceberg's default when
     *     no Flink commit needs protection and the user set none
     */
    public static Long olderThan(Table table, Long requested) {
        Snapshot flinkCommit = newestFlinkCommit(table);
        if (flinkCommit == null) {
            return requested;
        }
        long protectedFrom = flinkCommit.timestampMillis();
        if (requested == null) {
            long defaultAge =
                    PropertyUtil.propertyAsLong(
                            table.properties(),
                            TableProperties.MAX_SNAPSHOT_AGE_MS,
                            TableProperties.MAX_SNAPSHOT_AGE_MS_DEFAULT);
            return Math.min(System.currentTimeMillis() - defaultAge, protectedFrom);
        }
        if (protectedFrom < requested) {
            LOG.info(
                    "Keeping snapshot {} of table {} and newer ones: it holds the last checkpoint"
                            + " a Flink job committed",
                    flinkCommit.snapshotId(),
                    table.name());
            return protectedFrom;
        }
        return requested;
    }

    private static Snapshot newestFlinkCommit(Table table) {
        Snapshot current = table.currentSnapshot();
        while (current != null) {
            Map<String, String> summary = current.summary();
            if (summary != null && summary.containsKey(FLINK_CHECKPOINT_KEY)) {
                return current;
            }
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        return null;
    }
}
