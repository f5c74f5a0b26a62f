package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming read while appends keep arriving, with an injected task failure and a lost
 * TaskManager: every row arrives exactly once (checked by content through the checkpointed collect
 * sink, which drops results of failed attempts).
 */
class IcebergSourceFailoverITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final long ROWS = 1200;
    private static final long BATCH = 40;

    @TempDir Path dir;

    /** Fails the task once, after it has seen a number of rows. */
    private static final class FailOnce implements MapFunction<RowData, RowData> {
        static final AtomicInteger SEEN = new AtomicInteger();
        static final AtomicBoolean FAILED = new AtomicBoolean();

        @Override
        public RowData map(RowData row) {
            if (SEEN.incrementAndGet() == 150 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure");
            }
            return row;
        }
    }

    @Test
    void everyRowExactlyOnceDespiteFailuresAndALostTaskManager(
            @InjectMiniCluster MiniCluster miniCluster) throws Exception {
        String location = dir.resolve("t").toString();
        Table table = SourceTestTables.create(location, 2);
        SourceTestTables.append(table, 0, 100);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(TableLoader.fromHadoopTable(location))
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .batchSize(16)
                        .build();

        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> appendError = new AtomicReference<>();
        Thread appender =
                new Thread(
                        () -> {
                            try {
                                for (long from = 100; from < ROWS && !stop.get(); from += BATCH) {
                                    SourceTestTables.append(
                                            table, from, Math.min(ROWS, from + BATCH));
                                    LockSupport.parkNanos(100_000_000L);
                                }
                            } catch (Throwable t) {
                                appendError.set(t);
                            }
                        },
                        "appender");
        try (CloseableIterator<RowData> it =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg",
                                source.getProducedType())
                        .map(new FailOnce())
                        .returns(source.getProducedType())
                        .executeAndCollect()) {
            appender.start();
            List<RowData> first = SourceITCaseSupport.take(it, 400, Duration.ofSeconds(120));
            // Lose the TaskManager while appends keep coming, then give the job a new one.
            miniCluster.terminateTaskManager(0).get();
            miniCluster.startTaskManager();
            List<RowData> rest =
                    SourceITCaseSupport.take(it, (int) ROWS - 400, Duration.ofSeconds(120));
            List<RowData> all = new java.util.ArrayList<>(first);
            all.addAll(rest);
            assertThat(appendError.get()).isNull();
            assertThat(FailOnce.FAILED).isTrue();
            assertThat(SourceTestTables.rowStrings(all))
                    .isEqualTo(SourceTestTables.expectedStrings(0, ROWS));
        } finally {
            stop.set(true);
            appender.join();
        }
    }
}
