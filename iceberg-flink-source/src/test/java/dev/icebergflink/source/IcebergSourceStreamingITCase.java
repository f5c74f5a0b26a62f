package dev.icebergflink.source;

import static dev.icebergflink.source.SourceTestTables.append;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unbounded reads through a MiniCluster: starting strategies, appends picked up while running,
 * replace snapshots skipped, overwrite snapshots failing the job or skipped, branches.
 */
class IcebergSourceStreamingITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir Path dir;
    private Table table;
    private TableLoader loader;

    @BeforeEach
    void createTable() {
        String location = dir.resolve("t").toString();
        table = SourceTestTables.create(location, 2);
        loader = TableLoader.fromHadoopTable(location);
    }

    private IcebergSource.Builder<RowData> streaming() {
        return IcebergSource.forRowData()
                .tableLoader(loader)
                .streaming(true)
                .monitorInterval(Duration.ofMillis(100));
    }

    private static CloseableIterator<RowData> run(IcebergSource<RowData> source) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(SourceITCaseSupport.PARALLELISM);
        return env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg",
                        source.getProducedType())
                .executeAndCollect();
    }

    private static List<Long> take(CloseableIterator<RowData> it, int count) {
        return SourceTestTables.ids(SourceITCaseSupport.take(it, count, DEADLINE));
    }

    @Test
    void tableScanThenIncrementalReadsTheTableThenNewAppends() throws Exception {
        append(table, 0, 10);
        append(table, 10, 15);
        try (CloseableIterator<RowData> it = run(streaming().build())) {
            assertThat(take(it, 15)).isEqualTo(SourceTestTables.range(0, 15));
            append(table, 15, 20);
            append(table, 20, 30);
            assertThat(take(it, 15)).isEqualTo(SourceTestTables.range(15, 30));
        }
    }

    @Test
    void latestExclusiveReadsOnlyNewAppends() throws Exception {
        append(table, 0, 10);
        try (CloseableIterator<RowData> it =
                run(
                        streaming()
                                .streamingStartingStrategy(
                                        StreamingStartingStrategy
                                                .INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE)
                                .build())) {
            // The first round may run before or after an append lands, so keep appending one row
            // at a time until rows arrive: whatever is read must be new, never rows 0..9.
            java.util.concurrent.atomic.AtomicBoolean done =
                    new java.util.concurrent.atomic.AtomicBoolean();
            Thread appender =
                    new Thread(
                            () -> {
                                for (long id = 100; !done.get() && id < 400; id++) {
                                    append(table, id, id + 1);
                                    java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
                                }
                            });
            appender.start();
            try {
                List<Long> ids = take(it, 3);
                assertThat(ids).allMatch(id -> id >= 100);
            } finally {
                done.set(true);
                appender.join();
            }
        }
    }

    @Test
    void snapshotIdStrategyIsInclusiveAndBareStartIsExclusive() throws Exception {
        append(table, 0, 3);
        Snapshot second = append(table, 3, 7);
        append(table, 7, 9);
        try (CloseableIterator<RowData> it =
                run(
                        streaming()
                                .streamingStartingStrategy(
                                        StreamingStartingStrategy.INCREMENTAL_FROM_SNAPSHOT_ID)
                                .startSnapshotId(second.snapshotId())
                                .build())) {
            assertThat(take(it, 6)).isEqualTo(SourceTestTables.range(3, 9));
        }
        try (CloseableIterator<RowData> it =
                run(streaming().startSnapshotId(second.snapshotId()).build())) {
            assertThat(take(it, 2)).isEqualTo(SourceTestTables.range(7, 9));
            append(table, 9, 11);
            assertThat(take(it, 2)).isEqualTo(SourceTestTables.range(9, 11));
        }
    }

    @Test
    void earliestAndTimestampStrategies() throws Exception {
        Snapshot first = append(table, 0, 3);
        append(table, 3, 7);
        try (CloseableIterator<RowData> it =
                run(
                        streaming()
                                .streamingStartingStrategy(
                                        StreamingStartingStrategy
                                                .INCREMENTAL_FROM_EARLIEST_SNAPSHOT)
                                .build())) {
            assertThat(take(it, 7)).isEqualTo(SourceTestTables.range(0, 7));
        }
        try (CloseableIterator<RowData> it =
                run(
                        streaming()
                                .streamingStartingStrategy(
                                        StreamingStartingStrategy
                                                .INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP)
                                .startSnapshotTimestamp(first.timestampMillis())
                                .build())) {
            assertThat(take(it, 7)).isEqualTo(SourceTestTables.range(0, 7));
        }
    }

    @Test
    void replaceSnapshotsAreSkippedWithoutDuplicates() throws Exception {
        append(table, 0, 5);
        append(table, 5, 10);
        try (CloseableIterator<RowData> it = run(streaming().build())) {
            assertThat(take(it, 10)).isEqualTo(SourceTestTables.range(0, 10));
            List<DataFile> files = new ArrayList<>();
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                tasks.forEach(task -> files.add(task.file()));
            }
            DataFile compacted = SourceTestTables.writeFile(table, SourceTestTables.records(0, 10));
            table.newRewrite().rewriteFiles(Set.copyOf(files), Set.of(compacted)).commit();
            append(table, 10, 12);
            // Exactly the two new rows: a re-read compacted file would show ids 0..9 again.
            assertThat(take(it, 2)).isEqualTo(SourceTestTables.range(10, 12));
            append(table, 12, 13);
            assertThat(take(it, 1)).containsExactly(12L);
        }
    }

    @Test
    void overwriteSnapshotFailsTheJobNamingIt() throws Exception {
        append(table, 0, 5);
        try (CloseableIterator<RowData> it = run(streaming().build())) {
            assertThat(take(it, 5)).isEqualTo(SourceTestTables.range(0, 5));
            DataFile file = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
            table.newOverwrite()
                    .deleteFile(file)
                    .addFile(SourceTestTables.writeFile(table, SourceTestTables.records(50, 52)))
                    .commit();
            long overwriteId = table.currentSnapshot().snapshotId();
            assertThatThrownBy(() -> SourceITCaseSupport.take(it, 1, DEADLINE))
                    .rootCause()
                    .hasMessageContaining(Long.toString(overwriteId))
                    .hasMessageContaining("overwrite")
                    .hasMessageContaining("streaming-skip-overwrite-snapshots");
        }
    }

    @Test
    void skippedOverwriteAndDeleteSnapshotsLetTheReadGoOn() throws Exception {
        append(table, 0, 5);
        try (CloseableIterator<RowData> it =
                run(
                        streaming()
                                .set("streaming-skip-overwrite-snapshots", "true")
                                .set("streaming-skip-delete-snapshots", "true")
                                .build())) {
            assertThat(take(it, 5)).isEqualTo(SourceTestTables.range(0, 5));
            DataFile file = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
            DataFile replacement =
                    SourceTestTables.writeFile(table, SourceTestTables.records(50, 52));
            table.newOverwrite().deleteFile(file).addFile(replacement).commit();
            table.newDelete().deleteFile(replacement).commit();
            append(table, 5, 8);
            assertThat(take(it, 3)).isEqualTo(SourceTestTables.range(5, 8));
        }
    }

    @Test
    void followsABranch() throws Exception {
        append(table, 0, 3);
        table.manageSnapshots().createBranch("b", table.currentSnapshot().snapshotId()).commit();
        try (CloseableIterator<RowData> it = run(streaming().branch("b").build())) {
            assertThat(take(it, 3)).isEqualTo(SourceTestTables.range(0, 3));
            append(table, 100, 200); // main only: never read
            SourceTestTables.appendToBranch(table, "b", 3, 6);
            assertThat(take(it, 3)).isEqualTo(SourceTestTables.range(3, 6));
        }
    }

    @Test
    void flinkSourceFacadeStreams() throws Exception {
        Snapshot first = append(table, 0, 3);
        append(table, 3, 5);
        StreamExecutionEnvironment env = SourceITCaseSupport.env();
        try (CloseableIterator<RowData> it =
                FlinkSource.forRowData()
                        .env(env)
                        .tableLoader(loader)
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .startSnapshotId(first.snapshotId())
                        .build()
                        .executeAndCollect()) {
            assertThat(take(it, 2)).isEqualTo(SourceTestTables.range(3, 5));
            append(table, 5, 7);
            assertThat(take(it, 2)).isEqualTo(SourceTestTables.range(5, 7));
        }
    }
}
