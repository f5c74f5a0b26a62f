package dev.icebergflink.table.lookup;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.expressions.Expressions;

/**
 * The FULL lookup cache: the rows of one snapshot of the table, indexed by the lookup key, and how
 * it follows the table.
 *
 * <p>{@link #reload()} looks for a new snapshot; when the table changed it builds the next {@link
 * RowIndex} off to the side and then swaps it in with one volatile write, so that {@link #lookup}
 * always answers from a complete index: the old one until the new one is done. When the new
 * snapshots only append, the next index is the old one plus the appended files' rows (Iceberg's
 * incremental append scan); anything else (overwrite, delete, row-level deletes, a rollback) reads
 * the whole table again.
 *
 * <p>Lookups may run concurrently with a reload; reloads must not run concurrently with each other.
 */
@Internal
public final class FullCache {

    /** What a {@link #reload()} did. */
    public enum Reload {
        /** The table has no new snapshot; the index stays. */
        UNCHANGED,
        /** The index was built from the whole table. */
        FULL,
        /** The appended rows were added to a copy of the index. */
        INCREMENTAL
    }

    private final LookupTableReader reader;
    private final LookupKeys keys;
    private final long memoryLimit;

    private volatile RowIndex index = RowIndex.empty();
    private volatile long lastLoadMillis;
    private Snapshot snapshot;
    private boolean loaded;

    /**
     * @param reader the opened reader of the table
     * @param keys the lookup key
     * @param memoryLimit the most estimated bytes the index may take
     */
    public FullCache(LookupTableReader reader, LookupKeys keys, long memoryLimit) {
        this.reader = reader;
        this.keys = keys;
        this.memoryLimit = memoryLimit;
    }

    /**
     * Brings the index up to the table's current snapshot.
     *
     * @throws RowIndex.CacheTooLargeException when the rows need more than the memory limit; the
     *     current index stays
     */
    public Reload reload() {
        Snapshot current = reader.currentSnapshot();
        if (loaded && sameSnapshot(snapshot, current)) {
            return Reload.UNCHANGED;
        }
        long start = System.currentTimeMillis();
        Reload kind;
        RowIndex.Builder next;
        if (current == null) {
            next = RowIndex.builder(null, keys, memoryLimit, reader.tableName());
            kind = Reload.FULL;
        } else if (loaded && snapshot != null && reader.onlyAppendsBetween(snapshot, current)) {
            next = RowIndex.builder(index, keys, memoryLimit, reader.tableName());
            reader.readAppended(snapshot, current, next::add);
            kind = Reload.INCREMENTAL;
        } else {
            next = RowIndex.builder(null, keys, memoryLimit, reader.tableName());
            reader.read(current, Expressions.alwaysTrue(), next::add);
            kind = Reload.FULL;
        }
        index = next.build();
        snapshot = current;
        loaded = true;
        lastLoadMillis = System.currentTimeMillis() - start;
        return kind;
    }

    private static boolean sameSnapshot(Snapshot a, Snapshot b) {
        return a == null ? b == null : b != null && a.snapshotId() == b.snapshotId();
    }

    /** The rows with this key (see {@link LookupKeys#ofLookup}), from the complete index. */
    public List<RowData> lookup(GenericRowData key) {
        return index.get(key);
    }

    /** The estimated heap of the cached rows and their index. */
    public long estimatedBytes() {
        return index.estimatedBytes();
    }

    /** The number of cached rows. */
    public long rowCount() {
        return index.rowCount();
    }

    /** How long the last load or reload took, in milliseconds. */
    public long lastLoadMillis() {
        return lastLoadMillis;
    }
}
