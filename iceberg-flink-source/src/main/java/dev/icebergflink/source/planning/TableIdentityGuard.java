package dev.icebergflink.source.planning;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells, by loading the table anew, whether a streaming read's table is still the one it is pinned
 * to: after a failed round, and at most once per interval in rounds that find nothing new.
 *
 * <p>It exists because a refresh alone does not always see a re-created table (see {@link
 * ContinuousSplitPlanner}): a fresh load (new table operations, nothing cached) does. Not
 * thread-safe; one planning thread at a time uses it.
 */
final class TableIdentityGuard {

    private static final Logger LOG = LoggerFactory.getLogger(TableIdentityGuard.class);

    private final Table table;
    private final String tableUuid;
    private final Supplier<Table> freshTable;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long lastCheck;
    private boolean checked;

    /**
     * @param table the table the planner refreshes, named in messages
     * @param tableUuid the pinned UUID, or {@code null} to not check
     * @param freshTable loads the table anew, or {@code null} to not check with fresh loads
     * @param interval how often rounds that find nothing new check
     * @param nanoClock the time source of that interval
     */
    TableIdentityGuard(
            Table table,
            String tableUuid,
            Supplier<Table> freshTable,
            Duration interval,
            LongSupplier nanoClock) {
        this.table = table;
        this.tableUuid = tableUuid;
        this.freshTable = freshTable;
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /** The pinned UUID, or {@code null} when unknown. */
    String tableUuid() {
        return tableUuid;
    }

    /**
     * The failure of a round, told apart by a fresh load of the table: a re-created table is
     * unrecoverable, a dropped one is named; anything else is the round's failure as it is.
     */
    RuntimeException diagnose(RuntimeException failure) {
        if (freshTable == null || tableUuid == null) {
            return failure;
        }
        Table fresh;
        try {
            fresh = freshTable.get();
        } catch (NoSuchTableException missing) {
            IllegalStateException dropped =
                    new IllegalStateException(
                            String.format(
                                    "Planning of the streaming read of %s failed: the table does"
                                            + " not exist any more (was it dropped?)",
                                    table),
                            failure);
            dropped.addSuppressed(missing);
            return dropped;
        } catch (RuntimeException loadFailure) {
            failure.addSuppressed(loadFailure);
            return failure;
        }
        String freshUuid = TableIdentity.uuidOf(fresh);
        if (TableIdentity.differ(tableUuid, freshUuid)) {
            return TableIdentity.recreated(table, tableUuid, freshUuid, failure);
        }
        return failure;
    }

    /**
     * In a round that found nothing new: loads the table anew, at most once per interval, and fails
     * when it is another table than the one refreshed. A failed load only skips this check.
     */
    void checkWhenIdle() {
        if (freshTable == null || tableUuid == null) {
            return;
        }
        long now = nanoClock.getAsLong();
        if (checked && now - lastCheck < intervalNanos) {
            return;
        }
        checked = true;
        lastCheck = now;
        String freshUuid;
        try {
            freshUuid = TableIdentity.uuidOf(freshTable.get());
        } catch (RuntimeException e) {
            LOG.warn(
                    "Cannot load {} to check its identity; trying again in {}",
                    table,
                    Duration.ofNanos(intervalNanos),
                    e);
            return;
        }
        TableIdentity.check(table, tableUuid, freshUuid);
    }
}
