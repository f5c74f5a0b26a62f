package dev.icebergflink.table.lookup;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The rows of a FULL lookup cache, by key: an immutable value, so that a cache swaps a complete
 * index in with one write and a lookup never sees one half loaded.
 *
 * <p>New indexes come from a {@link Builder}, empty or starting from an existing index (an
 * incremental reload adds the appended rows to a copy; the old index stays untouched and keeps
 * serving). The builder estimates the memory of what it holds and fails as soon as the estimate
 * passes the limit, before the heap is exhausted.
 */
@Internal
public final class RowIndex {

    /** Per entry: map node, key row and its field array, row array; per row: object and segment. */
    private static final long ENTRY_OVERHEAD = 96;

    private static final long ROW_OVERHEAD = 64;

    private static final RowData[] NONE = new RowData[0];

    private final Map<GenericRowData, RowData[]> rows;
    private final long rowCount;
    private final long estimatedBytes;

    private RowIndex(Map<GenericRowData, RowData[]> rows, long rowCount, long estimatedBytes) {
        this.rows = rows;
        this.rowCount = rowCount;
        this.estimatedBytes = estimatedBytes;
    }

    /** An index without rows. */
    public static RowIndex empty() {
        return new RowIndex(Map.of(), 0, 0);
    }

    /** The rows with {@code key} (from {@link LookupKeys}), empty when there are none. */
    public List<RowData> get(GenericRowData key) {
        return Collections.unmodifiableList(Arrays.asList(rows.getOrDefault(key, NONE)));
    }

    /** The number of rows. */
    public long rowCount() {
        return rowCount;
    }

    /** The estimated heap the rows and the index take. */
    public long estimatedBytes() {
        return estimatedBytes;
    }

    /** A builder of a new index with the rows of {@code base} (or none) plus what it adds. */
    public static Builder builder(RowIndex base, LookupKeys keys, long memoryLimit, String table) {
        return new Builder(base, keys, memoryLimit, table);
    }

    /** Collects rows into a new index; not thread-safe. */
    public static final class Builder {

        private final Map<GenericRowData, RowData[]> rows;
        private final LookupKeys keys;
        private final long memoryLimit;
        private final String table;
        private long rowCount;
        private long estimatedBytes;

        private Builder(RowIndex base, LookupKeys keys, long memoryLimit, String table) {
            this.rows = base == null ? new HashMap<>() : new HashMap<>(base.rows);
            this.rowCount = base == null ? 0 : base.rowCount;
            this.estimatedBytes = base == null ? 0 : base.estimatedBytes;
            this.keys = keys;
            this.memoryLimit = memoryLimit;
            this.table = table;
        }

        /**
         * Adds a row (kept as it is: it must not change later). Rows whose key holds a NULL are
         * skipped, since no lookup matches them.
         *
         * @throws CacheTooLargeException when the index passes the memory limit
         */
        public void add(RowData row) {
            GenericRowData key = keys.ofRow(row);
            if (key == null) {
                return;
            }
            long size = ROW_OVERHEAD + sizeOf(row);
            RowData[] existing = rows.get(key);
            if (existing == null) {
                rows.put(key, new RowData[] {row});
                size += ENTRY_OVERHEAD + 16L * keys.size();
            } else {
                RowData[] grown = Arrays.copyOf(existing, existing.length + 1);
                grown[existing.length] = row;
                rows.put(key, grown);
                size += 8;
            }
            rowCount++;
            estimatedBytes += size;
            if (estimatedBytes > memoryLimit) {
                throw new CacheTooLargeException(table, memoryLimit, rowCount);
            }
        }

        private static long sizeOf(RowData row) {
            return row instanceof BinaryRowData binary ? binary.getSizeInBytes() : 64;
        }

        /** The index; the builder must not be used afterwards. */
        public RowIndex build() {
            return new RowIndex(rows, rowCount, estimatedBytes);
        }
    }

    /** The rows of a table do not fit into the memory the FULL cache may take. */
    public static final class CacheTooLargeException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        CacheTooLargeException(String table, long limit, long rows) {
            super(
                    String.format(
                            "The lookup cache of table %s needs more than %d bytes ('%s') after"
                                    + " %d rows: the table is too large for"
                                    + " 'lookup.cache'='FULL'. Use 'lookup.cache'='PARTIAL' (or"
                                    + " 'NONE') to look keys up in the table's files, push a filter"
                                    + " into the join's dimension side, or raise '%s'.",
                            table,
                            limit,
                            LookupJoinOptions.FULL_CACHE_MAX_MEMORY.key(),
                            rows,
                            LookupJoinOptions.FULL_CACHE_MAX_MEMORY.key()));
        }
    }
}
