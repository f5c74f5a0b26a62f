package dev.icebergflink.table.lookup;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.iceberg.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lookup function of {@code 'lookup.cache'='PARTIAL'} and {@code 'NONE'}: each lookup plans the
 * table with an equality filter on the key columns, so Iceberg keeps only the files whose partition
 * values and column statistics can hold the key, reads them with deletes applied and returns the
 * rows with that key. For {@code PARTIAL}, Flink's lookup cache sits in front.
 *
 * <p>It exists for tables too large to cache whole. The table's metadata is refreshed at most every
 * {@code lookup.full-cache.periodic-reload.interval}, so a lookup costs file reads, not a catalog
 * call. A failed lookup refreshes the table and is tried again up to {@code lookup.max-retries}
 * times, then fails with the cause.
 */
@Internal
public final class ScanLookupFunction extends LookupFunction {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(ScanLookupFunction.class);

    private final LookupTableReader reader;
    private final LookupKeys keys;
    private final LookupSettings settings;

    private transient Snapshot snapshot;
    private transient long refreshedAt;

    /**
     * @param reader the reader of the table (not yet opened)
     * @param keys the lookup key
     * @param settings the lookup options
     */
    public ScanLookupFunction(LookupTableReader reader, LookupKeys keys, LookupSettings settings) {
        this.reader = reader;
        this.keys = keys;
        this.settings = settings;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        reader.open();
        refresh();
    }

    private void refresh() {
        snapshot = reader.currentSnapshot();
        refreshedAt = System.currentTimeMillis();
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) throws IOException {
        GenericRowData key = keys.ofLookup(keyRow);
        if (key == null) {
            return List.of();
        }
        RuntimeException last = null;
        for (int attempt = 0; attempt <= settings.maxRetries(); attempt++) {
            try {
                if (last != null
                        || System.currentTimeMillis() - refreshedAt
                                >= settings.reloadInterval().toMillis()) {
                    refresh();
                }
                return read(key);
            } catch (RuntimeException e) {
                LOG.warn(
                        "Lookup in table {} failed (attempt {})",
                        reader.tableName(),
                        attempt + 1,
                        e);
                last = e;
            }
        }
        throw new IOException(
                String.format(
                        "Lookup of key %s in table %s failed %d times ('%s'=%d)",
                        key,
                        reader.tableName(),
                        settings.maxRetries() + 1,
                        LookupJoinOptions.MAX_RETRIES.key(),
                        settings.maxRetries()),
                last);
    }

    private List<RowData> read(GenericRowData key) {
        List<RowData> rows = new ArrayList<>();
        if (snapshot == null) {
            return rows;
        }
        reader.read(
                snapshot,
                keys.filter(key),
                row -> {
                    if (key.equals(keys.ofRow(row))) {
                        rows.add(row);
                    }
                });
        return rows;
    }

    @Override
    public void close() throws Exception {
        reader.close();
    }
}
