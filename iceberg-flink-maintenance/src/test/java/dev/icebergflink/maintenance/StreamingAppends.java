package dev.icebergflink.maintenance;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * The streaming writer of the maintenance ITCases: generated rows {@code (i, "s<i>", "p<i % 4>")},
 * about 100 per checkpoint, appended through our sink into a {@link MaintenanceTables} table, so
 * that maintenance runs while a real writer commits every checkpoint.
 */
final class StreamingAppends {

    static final String CHECKPOINT_KEY = "flink.max-committed-checkpoint-id";

    /** Rows of a writer that runs until its job is cancelled. */
    static final long UNBOUNDED = Long.MAX_VALUE;

    /** Partitions of the rows; the one writer adds one file per partition and commit. */
    static final int PARTITIONS = 4;

    private StreamingAppends() {}

    /** A streaming environment with checkpoints every 200 ms and the given restart attempts. */
    static StreamExecutionEnvironment env(int restartAttempts) {
        Configuration conf = new Configuration();
        if (restartAttempts == 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restartAttempts);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    java.time.Duration.ofMillis(100));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        return env;
    }

    /** Adds the writer of {@code rows} generated rows to {@code env}. */
    static void append(StreamExecutionEnvironment env, Table table, int rows) {
        append(env, table, rows, IcebergSink.forRowData().tableLoader(loader(table)));
    }

    /**
     * Adds the writer of {@code rows} generated rows to {@code env}, through {@code sink}; {@link
     * #UNBOUNDED} writes until the job is cancelled (ids 0, 1, 2, ... in order, so a cancelled job
     * has committed exactly the ids below the committed row count).
     */
    static void append(
            StreamExecutionEnvironment env, Table table, long rows, IcebergSink.Builder sink) {
        GeneratorFunction<Long, RowData> generator =
                i ->
                        GenericRowData.of(
                                i,
                                StringData.fromString("s" + i),
                                StringData.fromString("p" + (i % PARTITIONS)));
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                rows,
                                RateLimiterStrategy.perCheckpoint(100),
                                InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema()))),
                        WatermarkStrategy.noWatermarks(),
                        "rows")
                .setParallelism(1)
                .sinkTo(sink.build())
                .setParallelism(1);
    }

    static TableLoader loader(Table table) {
        return TableLoader.fromHadoopTable(table.location());
    }

    /** The rows the writer writes, as {@link MaintenanceTables#rows} shows them. */
    static List<String> expectedRows(long rows) {
        List<String> expected = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            expected.add(i + ":s" + i + ":p" + (i % 4));
        }
        expected.sort(null);
        return expected;
    }

    /** The newest checkpoint id the writer committed, from the snapshots the table still has. */
    static int maxCheckpoint(Table table) {
        long max = -1;
        for (Snapshot snapshot : table.snapshots()) {
            String id = snapshot.summary().get(CHECKPOINT_KEY);
            if (id != null) {
                max = Math.max(max, Long.parseLong(id));
            }
        }
        return (int) max;
    }

    /**
     * The data files the writer would have left without compaction: one per partition and commit
     * (at most one commit per checkpoint).
     */
    static int uncompactedFiles(Table table) {
        return PARTITIONS * maxCheckpoint(table);
    }

    /** The rows of the current snapshot, from its summary. */
    static long committedRows(Table table) {
        Snapshot current = table.currentSnapshot();
        return current == null
                ? 0
                : Long.parseLong(current.summary().getOrDefault("total-records", "0"));
    }

    /**
     * Adds the ids of the table's rewrite snapshots to {@code seen} (expiration may remove them
     * later) and returns whether any was ever seen.
     */
    static boolean rewriteSeen(Table table, java.util.Set<Long> seen) {
        for (Snapshot snapshot : table.snapshots()) {
            if (DataOperations.REPLACE.equals(snapshot.operation())) {
                seen.add(snapshot.snapshotId());
            }
        }
        return !seen.isEmpty();
    }

    /** The number of rewrite snapshots the table still has. */
    static int rewrites(Table table) {
        return rewritesAfter(table, Long.MIN_VALUE);
    }

    /** The number of rewrite snapshots the table has that were committed after {@code millis}. */
    static int rewritesAfter(Table table, long millis) {
        int count = 0;
        for (Snapshot snapshot : table.snapshots()) {
            if (DataOperations.REPLACE.equals(snapshot.operation())
                    && snapshot.timestampMillis() > millis) {
                count++;
            }
        }
        return count;
    }
}
