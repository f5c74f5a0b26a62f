package dev.icebergflink.table.source;

import dev.icebergflink.table.FlinkConfigOptions;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

/**
 * Chooses the parallelism of a SQL Iceberg source, by the rules of Iceberg's own connector for
 * batch reads.
 *
 * <p>It exists to keep the rule in one tested place: a {@code scan.parallelism} option wins; a
 * streaming read, or a bounded read with {@code table.exec.iceberg.infer-source-parallelism} off,
 * leaves the choice to Flink ({@code null}); otherwise the parallelism is the number of splits,
 * capped by {@code table.exec.iceberg.infer-source-parallelism.max} and by the pushed-down limit,
 * and at least 1.
 */
@Internal
public final class SourceParallelism {

    private SourceParallelism() {}

    /**
     * @param config the session configuration
     * @param scanParallelism the {@code scan.parallelism} option, or {@code null}
     * @param bounded whether the read is bounded
     * @param splitsUpTo the number of planned splits counted up to the given bound (only used when
     *     inferring)
     * @param limit the pushed-down limit, or a negative value for none
     * @return the parallelism, or {@code null} to let Flink decide
     */
    public static Integer choose(
            ReadableConfig config,
            Integer scanParallelism,
            boolean bounded,
            java.util.function.IntUnaryOperator splitsUpTo,
            long limit) {
        if (scanParallelism != null) {
            if (scanParallelism < 1) {
                throw new ValidationException(
                        "Option 'scan.parallelism' must be at least 1, got " + scanParallelism);
            }
            return scanParallelism;
        }
        if (!bounded
                || !config.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM)) {
            return null;
        }
        int max = config.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX);
        if (max < 1) {
            throw new ValidationException(
                    "Option '"
                            + FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX
                                    .key()
                            + "' must be at least 1, got "
                            + max);
        }
        long parallelism = Math.min(splitsUpTo.applyAsInt(max), max);
        if (limit >= 0) {
            parallelism = Math.min(parallelism, limit);
        }
        return (int) Math.max(1, parallelism);
    }
}
