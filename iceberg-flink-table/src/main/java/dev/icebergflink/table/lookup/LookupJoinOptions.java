package dev.icebergflink.table.lookup;

import dev.icebergflink.options.ConnectorOption;
import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.connector.source.lookup.LookupOptions;
import org.apache.flink.table.connector.source.lookup.LookupOptions.LookupCacheType;
import org.apache.flink.table.connector.source.lookup.cache.trigger.PeriodicCacheReloadTrigger.ScheduleMode;

/**
 * The options of lookup joins against Iceberg tables: Flink's standard {@code lookup.*} keys
 * (FLIP-221, {@link LookupOptions}) with the defaults and meaning they have here, plus {@code
 * lookup.full-cache.max-memory}.
 *
 * <p>It exists because Flink's own option objects carry Flink's defaults ({@code lookup.cache} is
 * {@code NONE} there; an Iceberg table is read in files, so a lookup without a cache plans and
 * reads files for every key, and the default here is {@code FULL}) and describe Flink's built-in
 * caches. The keys are the same, so jobs written for other connectors keep their options. They are
 * per-query options: {@code /*+ OPTIONS(...) *}{@code /} hints and the {@code WITH} clause of
 * {@code 'connector'='iceberg'} tables.
 */
@PublicEvolving
public final class LookupJoinOptions {

    private LookupJoinOptions() {}

    public static final ConnectorOption<LookupCacheType> CACHE =
            option(
                    ConfigOptions.key(LookupOptions.CACHE_TYPE.key())
                            .enumType(LookupCacheType.class)
                            .defaultValue(LookupCacheType.FULL)
                            .withDescription(
                                    "How a lookup join reads the table. FULL: every subtask keeps"
                                            + " the table's rows (the projected columns of the"
                                            + " rows that pass the pushed filters) in memory,"
                                            + " indexed by the join key, and reloads them when the"
                                            + " table has a new snapshot (only the appended files"
                                            + " when the new snapshots only append). PARTIAL: each"
                                            + " lookup plans and reads only the files whose"
                                            + " partition values and column statistics can hold"
                                            + " the key, and Flink's lookup cache keeps recent"
                                            + " answers. NONE: as PARTIAL, without a cache."),
                    LookupCacheType.class);

    public static final ConnectorOption<Duration> FULL_CACHE_RELOAD_INTERVAL =
            option(
                    ConfigOptions.key(LookupOptions.FULL_CACHE_PERIODIC_RELOAD_INTERVAL.key())
                            .durationType()
                            .defaultValue(Duration.ofMinutes(1))
                            .withDescription(
                                    "How often a lookup join looks for a new snapshot of the"
                                            + " table (one metadata refresh). With the FULL cache"
                                            + " a new snapshot reloads the cache; lookups keep"
                                            + " using the old cache until the new one is complete."
                                            + " PARTIAL and NONE lookups plan against the newest"
                                            + " snapshot found."),
                    Duration.class);

    public static final ConnectorOption<ScheduleMode> FULL_CACHE_SCHEDULE_MODE =
            option(
                    ConfigOptions.key(LookupOptions.FULL_CACHE_PERIODIC_RELOAD_SCHEDULE_MODE.key())
                            .enumType(ScheduleMode.class)
                            .defaultValue(ScheduleMode.FIXED_DELAY)
                            .withDescription(
                                    "How the reload interval is measured. FIXED_DELAY: from the"
                                            + " end of one check (and reload) to the start of the"
                                            + " next; FIXED_RATE: from the start of one check to"
                                            + " the start of the next."),
                    ScheduleMode.class);

    public static final ConnectorOption<MemorySize> FULL_CACHE_MAX_MEMORY =
            option(
                    ConfigOptions.key("lookup.full-cache.max-memory")
                            .memoryType()
                            .noDefaultValue()
                            .withDescription(
                                    "The most memory the FULL cache of one join subtask may take"
                                            + " (an estimate of its rows and index); by default a"
                                            + " quarter of the TaskManager's JVM heap. A table"
                                            + " whose rows need more fails the load: use"
                                            + " 'lookup.cache'='PARTIAL' for such tables. The"
                                            + " cache's size is reported by the gauge"
                                            + " 'lookupFullCacheMemoryBytes'."),
                    MemorySize.class);

    public static final ConnectorOption<Long> PARTIAL_CACHE_MAX_ROWS =
            option(
                    ConfigOptions.key(LookupOptions.PARTIAL_CACHE_MAX_ROWS.key())
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "The most rows Flink's PARTIAL lookup cache keeps per"
                                            + " subtask. PARTIAL needs this option or one of the"
                                            + " expire options."),
                    Long.class);

    public static final ConnectorOption<Duration> PARTIAL_CACHE_EXPIRE_AFTER_WRITE =
            option(
                    ConfigOptions.key(LookupOptions.PARTIAL_CACHE_EXPIRE_AFTER_WRITE.key())
                            .durationType()
                            .noDefaultValue()
                            .withDescription(
                                    "How long after it was read an answer stays in the PARTIAL"
                                            + " cache; bounds how stale a cached answer can be."),
                    Duration.class);

    public static final ConnectorOption<Duration> PARTIAL_CACHE_EXPIRE_AFTER_ACCESS =
            option(
                    ConfigOptions.key(LookupOptions.PARTIAL_CACHE_EXPIRE_AFTER_ACCESS.key())
                            .durationType()
                            .noDefaultValue()
                            .withDescription(
                                    "How long after its last use an answer stays in the PARTIAL"
                                            + " cache."),
                    Duration.class);

    public static final ConnectorOption<Boolean> PARTIAL_CACHE_CACHE_MISSING_KEY =
            option(
                    ConfigOptions.key(LookupOptions.PARTIAL_CACHE_CACHE_MISSING_KEY.key())
                            .booleanType()
                            .defaultValue(true)
                            .withDescription(
                                    "Whether the PARTIAL cache also keeps that a key has no row,"
                                            + " so a missing key is not looked up again until the"
                                            + " entry expires."),
                    Boolean.class);

    public static final ConnectorOption<Integer> MAX_RETRIES =
            option(
                    ConfigOptions.key(LookupOptions.MAX_RETRIES.key())
                            .intType()
                            .defaultValue(3)
                            .withDescription(
                                    "How often a failed lookup (PARTIAL, NONE) or a failed cache"
                                            + " load (FULL) is tried again before the join fails"
                                            + " with the cause. A FULL cache that fails to reload"
                                            + " keeps serving its rows until the retries are used"
                                            + " up at the reload interval."),
                    Integer.class);

    /** Every lookup option, in the order of the configuration reference. */
    public static final List<ConnectorOption<?>> ALL =
            List.of(
                    CACHE,
                    FULL_CACHE_RELOAD_INTERVAL,
                    FULL_CACHE_SCHEDULE_MODE,
                    FULL_CACHE_MAX_MEMORY,
                    PARTIAL_CACHE_MAX_ROWS,
                    PARTIAL_CACHE_EXPIRE_AFTER_WRITE,
                    PARTIAL_CACHE_EXPIRE_AFTER_ACCESS,
                    PARTIAL_CACHE_CACHE_MISSING_KEY,
                    MAX_RETRIES);

    private static <T> ConnectorOption<T> option(ConfigOption<T> option, Class<T> type) {
        return ConnectorOption.builder(option, type).build();
    }
}
