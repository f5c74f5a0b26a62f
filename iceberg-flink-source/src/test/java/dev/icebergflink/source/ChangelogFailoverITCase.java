package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming changelog read that fails three times in the middle of snapshots' changes: the
 * changes that reach the checkpointed collect sink are exactly those of a read without failures, in
 * the same order, and replayed they give the table's rows.
 */
class ChangelogFailoverITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    private static final int ROUNDS = 6;
    private static final int KEYS = 60;

    @TempDir Path dir;

    /** Fails the task each time the rows seen reach one of the thresholds. */
    private static final class FailAt implements MapFunction<RowData, RowData> {
        static final AtomicInteger SEEN = new AtomicInteger();
        static final AtomicInteger FAILURES = new AtomicInteger();
        private static final List<Integer> AT = List.of(47, 151, 271);

        @Override
        public RowData map(RowData row) {
            if (AT.contains(SEEN.incrementAndGet())) {
                FAILURES.incrementAndGet();
                throw new IllegalStateException("Injected failure");
            }
            return row;
        }
    }

    @Test
    void aRestoredReaderNeitherRepeatsNorSkipsAChange() throws Exception {
        ChangelogTestTables t =
                ChangelogTestTables.create(dir.resolve("t").toString(), 2, FileFormat.PARQUET);
        Table table = t.table();
        t.append("v0", LongStream.range(0, KEYS).toArray());
        for (int round = 1; round <= ROUNDS; round++) {
            // every round updates a third of the keys, deletes a few and adds new ones
            long[] updated = LongStream.range(0, KEYS).filter(id -> id % 3 == 0).toArray();
            t.upsert(
                    "v" + round,
                    LongStream.concat(LongStream.of(updated), LongStream.of(KEYS + round))
                            .toArray());
            t.delete(t.equalityDeletes(round, KEYS + round - 1));
        }
        long head = t.current().snapshotId();
        List<String> expected = new ArrayList<>();
        try (CloseableIterator<RowData> it = stream(boundedTo(t, head), false)) {
            it.forEachRemaining(row -> expected.add(ChangelogTestTables.describe(row)));
        }
        // every injected failure happens inside the read
        assertThat(expected).hasSizeGreaterThan(271);

        IcebergSource<RowData> streaming =
                IcebergSource.forRowData()
                        .tableLoader(TableLoader.fromHadoopTable(table.location()))
                        .changelogMode(ChangelogReadMode.ALL)
                        .streaming(true)
                        .streamingStartingStrategy(
                                StreamingStartingStrategy.INCREMENTAL_FROM_EARLIEST_SNAPSHOT)
                        .monitorInterval(Duration.ofMillis(100))
                        .batchSize(8)
                        .build();
        List<String> actual = new ArrayList<>();
        try (CloseableIterator<RowData> it = stream(streaming, true)) {
            SourceITCaseSupport.take(it, expected.size(), Duration.ofMinutes(3))
                    .forEach(row -> actual.add(ChangelogTestTables.describe(row)));
        }
        assertThat(FailAt.FAILURES).hasValue(3);
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(replay(actual)).isEqualTo(tableRows(t));
    }

    private static IcebergSource<RowData> boundedTo(ChangelogTestTables t, long end) {
        return IcebergSource.forRowData()
                .tableLoader(TableLoader.fromHadoopTable(t.table().location()))
                .changelogMode(ChangelogReadMode.ALL)
                .endSnapshotId(end)
                .build();
    }

    private static CloseableIterator<RowData> stream(IcebergSource<RowData> source, boolean failing)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(100);
        var rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog");
        return failing
                ? rows.map(new FailAt()).returns(source.getProducedType()).executeAndCollect()
                : rows.executeAndCollect();
    }

    /** The rows a consumer holds after applying the changes by key. */
    private static Map<Long, String> replay(List<String> changes) {
        Map<Long, String> rows = new TreeMap<>();
        for (String change : changes) {
            String[] parts = change.split(" ");
            long id = Long.parseLong(parts[1]);
            if (parts[0].startsWith("+")) {
                assertThat(rows.put(id, parts[2])).as("insert of a present key %s", id).isNull();
            } else {
                assertThat(rows.remove(id)).as("removal of %s", change).isEqualTo(parts[2]);
            }
        }
        return rows;
    }

    private static Map<Long, String> tableRows(ChangelogTestTables t) throws Exception {
        Map<Long, String> rows = new TreeMap<>();
        IcebergSource<RowData> current =
                IcebergSource.forRowData()
                        .tableLoader(TableLoader.fromHadoopTable(t.table().location()))
                        .build();
        for (RowData row : SourceITCaseSupport.collect(current)) {
            rows.put(row.getLong(0), row.getString(1).toString());
        }
        return rows;
    }
}
