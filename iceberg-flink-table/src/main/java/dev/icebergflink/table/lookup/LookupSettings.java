package dev.icebergflink.table.lookup;

import dev.icebergflink.options.OptionResolver;
import dev.icebergflink.options.OptionValidation;
import java.io.Serializable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.lookup.LookupOptions.LookupCacheType;
import org.apache.flink.table.connector.source.lookup.cache.trigger.PeriodicCacheReloadTrigger.ScheduleMode;

/**
 * The lookup options of one SQL table, resolved and checked once while planning ({@link #resolve}),
 * so that a wrong value fails the statement instead of the running job.
 *
 * @param cache which lookup runtime to use
 * @param reloadInterval how often to look for a new snapshot
 * @param scheduleMode how the reload interval is measured
 * @param maxMemoryBytes the FULL cache's memory limit, or -1 for a quarter of the JVM heap
 * @param partialMaxRows the PARTIAL cache's row limit, or -1
 * @param expireAfterWrite the PARTIAL cache's write expiry, or {@code null}
 * @param expireAfterAccess the PARTIAL cache's access expiry, or {@code null}
 * @param cacheMissingKey whether the PARTIAL cache keeps keys without rows
 * @param maxRetries extra attempts of a failed lookup or load
 */
@Internal
public record LookupSettings(
        LookupCacheType cache,
        Duration reloadInterval,
        ScheduleMode scheduleMode,
        long maxMemoryBytes,
        long partialMaxRows,
        Duration expireAfterWrite,
        Duration expireAfterAccess,
        boolean cacheMissingKey,
        int maxRetries)
        implements Serializable {

    /** The settings of a table whose query sets no lookup option. */
    public static LookupSettings defaults() {
        return resolve("<table>", Map.of());
    }

    /**
     * Resolves the lookup options among {@code engineOptions} (hints and connector {@code WITH}
     * options; other keys are ignored).
     *
     * @throws ValidationException naming the option, the value and what is allowed
     */
    public static LookupSettings resolve(String tableName, Map<String, String> engineOptions) {
        Set<String> keys = OptionValidation.validKeys(LookupJoinOptions.ALL);
        Map<String, String> lookup = new LinkedHashMap<>();
        engineOptions.forEach(
                (key, value) -> {
                    if (keys.contains(key)) {
                        lookup.put(key, value);
                    }
                });
        try {
            OptionResolver options = new OptionResolver(lookup, null, null);
            MemorySize memory = options.get(LookupJoinOptions.FULL_CACHE_MAX_MEMORY);
            Long maxRows = options.get(LookupJoinOptions.PARTIAL_CACHE_MAX_ROWS);
            LookupSettings settings =
                    new LookupSettings(
                            options.get(LookupJoinOptions.CACHE),
                            options.get(LookupJoinOptions.FULL_CACHE_RELOAD_INTERVAL),
                            options.get(LookupJoinOptions.FULL_CACHE_SCHEDULE_MODE),
                            memory == null ? -1 : memory.getBytes(),
                            maxRows == null ? -1 : maxRows,
                            options.get(LookupJoinOptions.PARTIAL_CACHE_EXPIRE_AFTER_WRITE),
                            options.get(LookupJoinOptions.PARTIAL_CACHE_EXPIRE_AFTER_ACCESS),
                            options.get(LookupJoinOptions.PARTIAL_CACHE_CACHE_MISSING_KEY),
                            options.get(LookupJoinOptions.MAX_RETRIES));
            settings.check();
            return settings;
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format("Table %s: %s", tableName, e.getMessage()), e);
        }
    }

    private void check() {
        if (reloadInterval.isNegative() || reloadInterval.isZero()) {
            throw invalid(
                    LookupJoinOptions.FULL_CACHE_RELOAD_INTERVAL.key(),
                    reloadInterval,
                    "a positive duration, e.g. '1 min'");
        }
        if (maxRetries < 0) {
            throw invalid(LookupJoinOptions.MAX_RETRIES.key(), maxRetries, "0 or more");
        }
        if (maxMemoryBytes == 0) {
            throw invalid(
                    LookupJoinOptions.FULL_CACHE_MAX_MEMORY.key(),
                    "0 bytes",
                    "a positive memory size, e.g. '512 mb'");
        }
        if (partialMaxRows == 0 || partialMaxRows < -1) {
            throw invalid(
                    LookupJoinOptions.PARTIAL_CACHE_MAX_ROWS.key(),
                    partialMaxRows,
                    "a positive number of rows");
        }
        if (cache == LookupCacheType.PARTIAL
                && partialMaxRows < 0
                && expireAfterWrite == null
                && expireAfterAccess == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s'='PARTIAL' needs a bound of the cache: set '%s', '%s' or"
                                    + " '%s'",
                            LookupJoinOptions.CACHE.key(),
                            LookupJoinOptions.PARTIAL_CACHE_MAX_ROWS.key(),
                            LookupJoinOptions.PARTIAL_CACHE_EXPIRE_AFTER_WRITE.key(),
                            LookupJoinOptions.PARTIAL_CACHE_EXPIRE_AFTER_ACCESS.key()));
        }
    }

    private static IllegalArgumentException invalid(String key, Object value, String expected) {
        return new IllegalArgumentException(
                String.format(
                        "Invalid value '%s' for option '%s': expected %s", value, key, expected));
    }

    /** The FULL cache's memory limit in bytes: the option, or a quarter of the JVM heap. */
    public long fullCacheMemoryLimit() {
        return maxMemoryBytes > 0 ? maxMemoryBytes : Runtime.getRuntime().maxMemory() / 4;
    }
}
