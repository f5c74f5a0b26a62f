package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.Jobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact limit (bounded at parallelism 4, and a streaming read that ends by itself once the
 * limit is reached) and paged planning across a savepoint in the middle of the initial scan.
 */
class IcebergSourceLimitAndPagingITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    @TempDir Path dir;
    private Table table;
    private TableLoader loader;

    @BeforeEach
    void createTable() {
        String location = dir.resolve("t").toString();
        table = SourceTestTables.create(location, 2);
        loader = TableLoader.fromHadoopTable(location);
    }

    private static StreamExecutionEnvironment env(int parallelism, Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        return env;
    }

    private static <T> List<T> collectAll(StreamExecutionEnvironment env, IcebergSource<T> source)
            throws Exception {
        List<T> out = new ArrayList<>();
        try (CloseableIterator<T> it =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg",
                                source.getProducedType())
                        .executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void boundedLimitIsExactAtParallelismFour() throws Exception {
        SourceTestTables.appendFiles(table, 0, 100, 10);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .limit(7L)
                        .batchSize(3)
                        .splitOpenFileCost(128L * 1024 * 1024)
                        .build();
        List<RowData> rows = collectAll(env(4, new Configuration()), source);
        assertThat(rows).hasSize(7);
        assertThat(SourceTestTables.expectedStrings(0, 100))
                .containsAll(SourceTestTables.rowStrings(rows));
        assertThat(SourceTestTables.ids(rows)).doesNotHaveDuplicates();

        assertThat(
                        collectAll(
                                env(4, new Configuration()),
                                IcebergSource.forRowData().tableLoader(loader).limit(0L).build()))
                .isEmpty();
    }

    @Test
    @Timeout(120)
    void streamingReadWithALimitEndsByItself() throws Exception {
        SourceTestTables.append(table, 0, 20);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .limit(30L)
                        .build();
        StreamExecutionEnvironment env = env(2, new Configuration());
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg",
                                source.getProducedType())
                        .executeAndCollect()) {
            rows.addAll(SourceITCaseSupport.take(it, 20, Duration.ofSeconds(60)));
            // the limit is not reached yet: the read waits for new snapshots
            SourceTestTables.append(table, 20, 40);
            it.forEachRemaining(rows::add); // returns only because the job ends
        }
        assertThat(rows).hasSize(30);
        assertThat(SourceTestTables.ids(rows)).doesNotHaveDuplicates().containsAll(range(0, 20));
        assertThat(SourceTestTables.expectedStrings(0, 40))
                .containsAll(SourceTestTables.rowStrings(rows));
    }

    private static List<Long> range(long from, long to) {
        return SourceTestTables.range(from, to);
    }

    /** Records every row it sees (by id) and slows rows down a little (flow control only). */
    private static final class RecordIds implements MapFunction<RowData, RowData> {
        static final Queue<Long> SEEN = new ConcurrentLinkedQueue<>();

        @Override
        public RowData map(RowData row) {
            LockSupport.parkNanos(2_000_000L);
            SEEN.add(row.getLong(0));
            return row;
        }
    }

    private static void waitFor(Queue<Long> seen, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (seen.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Only " + seen.size() + " of " + count + " rows arrived");
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    private JobClient startPagedRead(Configuration conf) throws Exception {
        StreamExecutionEnvironment env = env(2, conf);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(200))
                        .splitPlanningPageSize(10)
                        .splitOpenFileCost(128L * 1024 * 1024) // one file (row) per split
                        .build();
        env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg",
                        source.getProducedType())
                .map(new RecordIds())
                .returns(source.getProducedType())
                .sinkTo(new DiscardingSink<>());
        return env.executeAsync("paged-read");
    }

    /**
     * A stop-with-savepoint while the paged initial scan is in progress (at most a page plus the
     * readers' splits are planned beyond the rows seen), then a job restored from the savepoint: it
     * plans the scan again, skips what was handed out, and every row arrives exactly once.
     */
    @Test
    void pagedScanResumesFromASavepointInTheMiddle() throws Exception {
        SourceTestTables.appendFiles(table, 0, 240, 1);
        RecordIds.SEEN.clear();
        JobClient first = startPagedRead(new Configuration());
        waitFor(RecordIds.SEEN, 60);
        String savepoint =
                first.stopWithSavepoint(
                                false,
                                dir.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get(60, TimeUnit.SECONDS);
        int beforeSavepoint = RecordIds.SEEN.size();
        assertThat(beforeSavepoint).isBetween(60, 120);

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        JobClient second = startPagedRead(restore);
        try {
            waitFor(RecordIds.SEEN, 240);
        } finally {
            Jobs.cancelAndWait(second);
        }
        List<Long> ids = new ArrayList<>(RecordIds.SEEN);
        assertThat(ids).doesNotHaveDuplicates();
        assertThat(ids.stream().sorted().toList()).isEqualTo(range(0, 240));
    }
}
