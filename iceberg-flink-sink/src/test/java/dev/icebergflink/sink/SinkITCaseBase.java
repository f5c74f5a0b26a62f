package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared setup of the sink's MiniCluster tests: one MiniCluster per test class (one
 * TaskManager, four slots), a fresh warehouse with {@link SinkTestTables} per test, and the jobs'
 * usual environment and inputs.
 */
abstract class SinkITCaseBase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path warehouse;

    /** Creates the test's tables in {@link #warehouse}. */
    SinkTestTables tables;

    @BeforeEach
    void createWarehouse() {
        tables = new SinkTestTables(warehouse);
    }

    /** A streaming environment: parallelism 2, a checkpoint every 200 ms, no restarts. */
    static StreamExecutionEnvironment env() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        return env;
    }

    /** {@code rows} as a bounded input of one subtask. */
    static DataStream<RowData> input(StreamExecutionEnvironment env, List<RowData> rows) {
        return env.fromData(rows, TYPE_INFO).setParallelism(1);
    }

    /** {@code count} rows {@code (i, "v" + i, "p" + i % partitions)}, about perCheckpoint each. */
    static DataStream<RowData> generated(
            StreamExecutionEnvironment env, int count, int perCheckpoint, int partitions) {
        GeneratorFunction<Long, RowData> generator = i -> row(i, "v" + i, "p" + (i % partitions));
        return env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                count,
                                RateLimiterStrategy.perCheckpoint(perCheckpoint),
                                TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "generator")
                .setParallelism(1);
    }

    /** The table rows {@link #generated} writes, as {@link SinkTestTables#rows} lists them. */
    static List<String> expected(int count, int partitions) {
        return IntStream.range(0, count)
                .mapToObj(i -> i + ":v" + i + ":p" + (i % partitions))
                .sorted()
                .collect(Collectors.toList());
    }

    /** The data files {@code snapshot} added. */
    static List<DataFile> addedFiles(TableLoader loader, Snapshot snapshot) {
        Table table = SinkTestTables.load(loader);
        List<DataFile> files = new ArrayList<>();
        snapshot.addedDataFiles(table.io()).forEach(files::add);
        return files;
    }
}
