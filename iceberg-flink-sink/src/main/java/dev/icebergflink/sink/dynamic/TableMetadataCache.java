package dev.icebergflink.sink.dynamic;

import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The tables a dynamic sink operator writes to, as last loaded from the catalog: at most {@code
 * maxSize} of them (the least recently used is forgotten first), each reloaded when it is older
 * than {@code refreshMs}, so that schema and spec changes made elsewhere reach the operator within
 * that time without a catalog round trip per record. A table the catalog does not have is
 * remembered as missing for the same time.
 *
 * <p>Not thread-safe: one per operator instance.
 */
@Internal
public final class TableMetadataCache {

    private final Catalog catalog;
    private final long refreshMs;
    private final LongSupplier clock;
    private final LinkedHashMap<TableIdentifier, Entry> entries;

    /**
     * @param catalog where tables are loaded from
     * @param maxSize how many tables are kept, at least 1
     * @param refreshMs how old a loaded table may get before it is loaded again
     * @param clock the current time in milliseconds
     */
    public TableMetadataCache(Catalog catalog, int maxSize, long refreshMs, LongSupplier clock) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("cacheMaxSize must be at least 1, got " + maxSize);
        }
        if (refreshMs < 0) {
            throw new IllegalArgumentException(
                    "cacheRefreshMs must not be negative, got " + refreshMs);
        }
        this.catalog = catalog;
        this.refreshMs = refreshMs;
        this.clock = clock;
        this.entries = LruMaps.bounded(maxSize);
    }

    /**
     * The table as cached, loaded when absent or stale; empty when the catalog has no such table.
     */
    public Optional<Table> table(TableIdentifier identifier) {
        long now = clock.getAsLong();
        Entry entry = entries.get(identifier);
        if (entry == null || now - entry.loadedAt >= refreshMs) {
            entry = new Entry(load(identifier), now);
            entries.put(identifier, entry);
        }
        return Optional.ofNullable(entry.table);
    }

    /** Takes {@code table} as the current state, after this operator changed or created it. */
    public void update(TableIdentifier identifier, Table table) {
        entries.put(identifier, new Entry(table, clock.getAsLong()));
    }

    /** Forgets the table: the next access loads it (after a failed change, for one). */
    public void invalidate(TableIdentifier identifier) {
        entries.remove(identifier);
    }

    /** How many tables are cached. */
    public int size() {
        return entries.size();
    }

    private Table load(TableIdentifier identifier) {
        try {
            return catalog.loadTable(identifier);
        } catch (NoSuchTableException missing) {
            return null;
        }
    }

    private static final class Entry {
        private final Table table;
        private final long loadedAt;

        Entry(Table table, long loadedAt) {
            this.table = table;
            this.loadedAt = loadedAt;
        }
    }
}
