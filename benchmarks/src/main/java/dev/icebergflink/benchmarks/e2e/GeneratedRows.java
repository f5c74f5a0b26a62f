package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The benchmark rows as a bounded FLIP-27 source: Flink's {@link DataGeneratorSource} over the
 * indexes {@code [0, count)}, each index mapped to a row id ({@code id = index * stride}) and the
 * row built by {@link BenchmarkRows}. The stride lets the upsert workload rewrite every fourth key
 * of a table written with stride 1.
 */
public final class GeneratedRows implements GeneratorFunction<Long, RowData> {

    private static final long serialVersionUID = 1L;

    private final BenchmarkRows rows;
    private final long stride;

    private GeneratedRows(BenchmarkRows rows, long stride) {
        this.rows = rows;
        this.stride = stride;
    }

    @Override
    public RowData map(Long index) {
        return rows.rowData(index * stride);
    }

    /**
     * Adds the generator to a job: {@code count} rows with ids {@code 0, stride, 2 * stride, ...},
     * read with the environment's parallelism.
     */
    public static DataStream<RowData> stream(
            StreamExecutionEnvironment env, BenchmarkRows rows, long count, long stride) {
        DataGeneratorSource<RowData> source =
                new DataGeneratorSource<>(
                        new GeneratedRows(rows, stride),
                        count,
                        InternalTypeInfo.of(BenchmarkRows.ROW_TYPE));
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "generated rows");
    }

    /**
     * Adds the generator to a job at a steady pace: {@code count} rows with ids {@code 0, 1, 2,
     * ...}, at most {@code rowsPerSecond} in all (Flink's rate limiter shares it among the
     * subtasks), so that a streaming job's checkpoints each commit a part of them.
     */
    public static DataStream<RowData> throttled(
            StreamExecutionEnvironment env, BenchmarkRows rows, long count, double rowsPerSecond) {
        DataGeneratorSource<RowData> source =
                new DataGeneratorSource<>(
                        new GeneratedRows(rows, 1),
                        count,
                        RateLimiterStrategy.perSecond(rowsPerSecond),
                        InternalTypeInfo.of(BenchmarkRows.ROW_TYPE));
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "throttled generated rows");
    }
}
