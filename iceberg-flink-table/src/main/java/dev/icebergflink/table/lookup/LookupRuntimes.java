package dev.icebergflink.table.lookup;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.connector.source.LookupTableSource.LookupRuntimeProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.connector.source.lookup.PartialCachingLookupProvider;
import org.apache.flink.table.connector.source.lookup.cache.DefaultLookupCache;

/**
 * Chooses the lookup runtime of a table by {@code lookup.cache}: the own FULL cache, or a per-key
 * file lookup with ({@code PARTIAL}) or without ({@code NONE}) Flink's {@link DefaultLookupCache}.
 *
 * <p>It exists so that the SQL table source only hands over what it planned and knows nothing of
 * the caches.
 */
@Internal
public final class LookupRuntimes {

    private LookupRuntimes() {}

    /**
     * @param reader the reader of the table with the source's plan
     * @param keys the lookup key
     * @param settings the resolved lookup options
     */
    public static LookupRuntimeProvider create(
            LookupTableReader reader, LookupKeys keys, LookupSettings settings) {
        switch (settings.cache()) {
            case FULL:
                return LookupFunctionProvider.of(
                        new FullCacheLookupFunction(reader, keys, settings));
            case PARTIAL:
                DefaultLookupCache.Builder cache =
                        DefaultLookupCache.newBuilder().cacheMissingKey(settings.cacheMissingKey());
                if (settings.partialMaxRows() > 0) {
                    cache.maximumSize(settings.partialMaxRows());
                }
                if (settings.expireAfterWrite() != null) {
                    cache.expireAfterWrite(settings.expireAfterWrite());
                }
                if (settings.expireAfterAccess() != null) {
                    cache.expireAfterAccess(settings.expireAfterAccess());
                }
                return PartialCachingLookupProvider.of(
                        new ScanLookupFunction(reader, keys, settings), cache.build());
            case NONE:
            default:
                return LookupFunctionProvider.of(new ScanLookupFunction(reader, keys, settings));
        }
    }
}
