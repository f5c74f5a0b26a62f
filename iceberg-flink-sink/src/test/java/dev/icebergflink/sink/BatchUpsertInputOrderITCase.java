package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.PartitionSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * In BATCH execution Flink sorts a keyed input by key before the de-duplication, with a sort that
 * is not stable: changes of one key would reach the de-duplication in any order. These tests give
 * many keys many changes each, from one input subtask in a known order, and check that the last
 * change of every key is what the table keeps (the sink stamps each row with its input position,
 * which the sort compares after the key: {@code InputOrderStamper}).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BatchUpsertInputOrderITCase {

    private static final int KEYS = 300;
    private static final int VERSIONS = 40;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path warehouse;

    private static StreamExecutionEnvironment batchEnv() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    /** Versions 0..VERSIONS-1 of every key, interleaved: version v of all keys, then v + 1. */
    private static List<RowData> changes(boolean upsertKinds) {
        List<RowData> changes = new ArrayList<>();
        for (int version = 0; version < VERSIONS; version++) {
            for (long id = 0; id < KEYS; id++) {
                RowKind kind = upsertKinds || version == 0 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
                if (!upsertKinds && version > 0) {
                    changes.add(row(RowKind.UPDATE_BEFORE, id, "v" + (version - 1), "p"));
                }
                changes.add(row(kind, id, "v" + version, "p"));
            }
        }
        return changes;
    }

    private static List<String> lastVersions() {
        List<String> expected = new ArrayList<>();
        for (long id = 0; id < KEYS; id++) {
            expected.add(id + ":v" + (VERSIONS - 1) + ":p");
        }
        return expected;
    }

    @ParameterizedTest(name = "upsert={0}")
    @ValueSource(booleans = {true, false})
    void theLastChangeOfEveryKeyWins(boolean upsert) throws Exception {
        TableLoader loader = new SinkTestTables(warehouse).create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = batchEnv();
        env.fromData(changes(upsert), TYPE_INFO)
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(upsert)
                                .equalityFieldColumns(List.of("id"))
                                .build());
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(lastVersions());
    }

    @Test
    void theLastChangeWinsWhenTheRowsCarryTimestampsOfTheirOwn() throws Exception {
        TableLoader loader = new SinkTestTables(warehouse).create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = batchEnv();
        // every row has the same event time: Flink's sort compares timestamps after the key
        env.fromData(changes(true), TYPE_INFO)
                .setParallelism(1)
                .assignTimestampsAndWatermarks(
                        org.apache.flink.api.common.eventtime.WatermarkStrategy
                                .<RowData>noWatermarks()
                                .withTimestampAssigner((row, previous) -> 1000L))
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id"))
                                .build());
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(lastVersions());
    }
}
