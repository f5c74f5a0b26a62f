package dev.icebergflink.table.lookup;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.connector.source.lookup.cache.trigger.PeriodicCacheReloadTrigger.ScheduleMode;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lookup function of {@code 'lookup.cache'='FULL'}: answers every lookup from its own {@link
 * FullCache} and keeps the cache up to date on a background thread.
 *
 * <p>It exists instead of Flink's {@code FullCachingLookupProvider}, which loads only through an
 * {@code InputFormat} and reloads the whole table at every interval whether it changed or not; this
 * one reloads only when the table has a new snapshot, adds just the appended rows when it can, and
 * reports the cache's memory.
 *
 * <p>The first load runs in {@link #open}, so the join never answers from an empty cache. Then,
 * every {@code lookup.full-cache.periodic-reload.interval} (measured as {@code schedule-mode} says)
 * the reload thread checks for a new snapshot. A failed check or reload is tried again at the next
 * interval while the old cache keeps serving; after {@code lookup.max-retries} failures in a row,
 * or at once when the table outgrew {@code lookup.full-cache.max-memory}, the next lookup fails the
 * job with the cause. A pinned snapshot ({@code snapshot-id}, {@code tag}, {@code as-of-timestamp})
 * is loaded once.
 *
 * <p>Metrics (gauges of the join operator): {@value #MEMORY_GAUGE}, {@value #ROWS_GAUGE} and
 * {@value #LOAD_TIME_GAUGE}.
 */
@Internal
public final class FullCacheLookupFunction extends LookupFunction {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(FullCacheLookupFunction.class);

    /** Gauge: the estimated heap of the cached rows and their index, in bytes. */
    public static final String MEMORY_GAUGE = "lookupFullCacheMemoryBytes";

    /** Gauge: the number of cached rows. */
    public static final String ROWS_GAUGE = "lookupFullCacheRows";

    /** Gauge: how long the last load or reload took, in milliseconds. */
    public static final String LOAD_TIME_GAUGE = "lookupFullCacheLoadTimeMillis";

    private final LookupTableReader reader;
    private final LookupKeys keys;
    private final LookupSettings settings;

    private transient FullCache cache;
    private transient ScheduledExecutorService reloads;
    private transient volatile Throwable failure;
    private transient int failuresInARow;

    /**
     * @param reader the reader of the table (not yet opened)
     * @param keys the lookup key
     * @param settings the lookup options
     */
    public FullCacheLookupFunction(
            LookupTableReader reader, LookupKeys keys, LookupSettings settings) {
        this.reader = reader;
        this.keys = keys;
        this.settings = settings;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        reader.open();
        cache = new FullCache(reader, keys, settings.fullCacheMemoryLimit());
        loadFirst();
        MetricGroup metrics = context.getMetricGroup();
        metrics.gauge(MEMORY_GAUGE, (Gauge<Long>) cache::estimatedBytes);
        metrics.gauge(ROWS_GAUGE, (Gauge<Long>) cache::rowCount);
        metrics.gauge(LOAD_TIME_GAUGE, (Gauge<Long>) cache::lastLoadMillis);
        if (!reader.pinned()) {
            reloads =
                    Executors.newSingleThreadScheduledExecutor(
                            runnable -> {
                                Thread thread =
                                        new Thread(
                                                runnable,
                                                "iceberg-lookup-reload-" + reader.tableName());
                                thread.setDaemon(true);
                                return thread;
                            });
            long interval = settings.reloadInterval().toMillis();
            if (settings.scheduleMode() == ScheduleMode.FIXED_RATE) {
                reloads.scheduleAtFixedRate(
                        this::reloadInBackground, interval, interval, TimeUnit.MILLISECONDS);
            } else {
                reloads.scheduleWithFixedDelay(
                        this::reloadInBackground, interval, interval, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void loadFirst() {
        for (int attempt = 0; ; attempt++) {
            try {
                FullCache.Reload kind = cache.reload();
                LOG.info(
                        "Lookup cache of {} loaded ({}): {} rows, about {} bytes, in {} ms",
                        reader.tableName(),
                        kind,
                        cache.rowCount(),
                        cache.estimatedBytes(),
                        cache.lastLoadMillis());
                return;
            } catch (RowIndex.CacheTooLargeException e) {
                throw e;
            } catch (RuntimeException e) {
                if (attempt >= settings.maxRetries()) {
                    throw new IllegalStateException(
                            String.format(
                                    "Cannot load the lookup cache of table %s after %d"
                                            + " attempts ('%s'=%d)",
                                    reader.tableName(),
                                    attempt + 1,
                                    LookupJoinOptions.MAX_RETRIES.key(),
                                    settings.maxRetries()),
                            e);
                }
                LOG.warn(
                        "Loading the lookup cache of {} failed; trying again",
                        reader.tableName(),
                        e);
            }
        }
    }

    private void reloadInBackground() {
        if (failure != null) {
            return;
        }
        try {
            FullCache.Reload kind = cache.reload();
            failuresInARow = 0;
            if (kind != FullCache.Reload.UNCHANGED) {
                LOG.info(
                        "Lookup cache of {} reloaded ({}): {} rows, about {} bytes, in {} ms",
                        reader.tableName(),
                        kind,
                        cache.rowCount(),
                        cache.estimatedBytes(),
                        cache.lastLoadMillis());
            }
        } catch (RowIndex.CacheTooLargeException e) {
            failure = e;
        } catch (Throwable e) {
            failuresInARow++;
            if (failuresInARow > settings.maxRetries()) {
                failure =
                        new IllegalStateException(
                                String.format(
                                        "Cannot reload the lookup cache of table %s: %d attempts"
                                                + " in a row failed ('%s'=%d)",
                                        reader.tableName(),
                                        failuresInARow,
                                        LookupJoinOptions.MAX_RETRIES.key(),
                                        settings.maxRetries()),
                                e);
            } else {
                LOG.warn(
                        "Reloading the lookup cache of {} failed; it keeps serving the rows it"
                                + " has and tries again in {}",
                        reader.tableName(),
                        settings.reloadInterval(),
                        e);
            }
        }
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) throws IOException {
        Throwable failed = failure;
        if (failed != null) {
            throw new IOException(failed.getMessage(), failed);
        }
        GenericRowData key = keys.ofLookup(keyRow);
        return key == null ? List.of() : cache.lookup(key);
    }

    @Override
    public void close() throws Exception {
        if (reloads != null) {
            reloads.shutdownNow();
            reloads.awaitTermination(10, TimeUnit.SECONDS);
        }
        reader.close();
    }
}
