package dev.icebergflink.source.planning;

import dev.icebergflink.source.config.ScanContext;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.Scan;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;

/**
 * Applies a read plan to an Iceberg scan: case sensitivity, split sizing, filters, the column
 * statistics to keep and the planning pool.
 *
 * <p>It exists so that full scans, append scans and paged scans are configured by one rule.
 */
final class ScanSettings {

    private ScanSettings() {}

    /**
     * @param pool the pool Iceberg plans with, or {@code null} for its shared one
     * @param splitSize the split size to plan with (the plan's, or an adaptive smaller one)
     */
    static <S extends Scan<S, ?, ?>> S apply(
            S scan, ScanContext context, ExecutorService pool, long splitSize) {
        S configured =
                scan.caseSensitive(context.caseSensitive())
                        .option(TableProperties.SPLIT_SIZE, Long.toString(splitSize))
                        .option(
                                TableProperties.SPLIT_LOOKBACK,
                                Integer.toString(context.splitLookback()))
                        .option(
                                TableProperties.SPLIT_OPEN_FILE_COST,
                                Long.toString(context.splitOpenFileCost()));
        for (Expression filter : context.filters()) {
            configured = configured.filter(filter);
        }
        if (context.includeColumnStats()) {
            configured = configured.includeColumnStats();
        } else if (context.watermarkColumn() != null) {
            String column = context.findColumn(context.watermarkColumn()).orElseThrow().name();
            configured = configured.includeColumnStats(List.of(column));
        }
        if (pool != null) {
            configured = configured.planWith(pool);
        }
        return configured;
    }
}
