package dev.icebergflink.examples;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

/**
 * Appends the generated events {@code firstId} to {@code firstId + count - 1} to a table as one
 * commit, with a bounded Flink batch job through {@link IcebergSink}.
 *
 * <p>It exists for the examples that need a table to change in known steps: {@link
 * RewriteSmallFiles} makes small files with it, and the {@link StreamingRead} test appends the
 * snapshots the running read must pick up.
 */
public final class EventBatch {

    private EventBatch() {}

    /** Runs the job in {@code env} and returns when the commit is done. */
    public static void append(
            StreamExecutionEnvironment env, TableLoader tableLoader, long firstId, long count)
            throws Exception {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        GeneratedEvents events = new GeneratedEvents();
        GeneratorFunction<Long, RowData> fromFirstId = index -> events.map(firstId + index);
        DataGeneratorSource<RowData> source =
                new DataGeneratorSource<>(
                        fromFirstId,
                        count,
                        RateLimiterStrategy.noOp(),
                        TypeInformation.of(RowData.class));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "generated events")
                .sinkTo(IcebergSink.forRowData().tableLoader(tableLoader).build())
                .name("iceberg sink");
        env.execute(String.format("append events %d to %d", firstId, firstId + count - 1));
    }
}
