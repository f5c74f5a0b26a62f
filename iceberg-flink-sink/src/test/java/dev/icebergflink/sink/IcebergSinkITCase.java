package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.BY_PART;
import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static dev.icebergflink.sink.SinkTestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.ExceptionUtils;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
/** MiniCluster tests of IcebergSink's modes and formats (FlinkSinkOptionsITCase: options). */
class IcebergSinkITCase extends SinkITCaseBase {

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void appendsInEveryFormatWithOneSnapshotPerCheckpoint(String format) throws Exception {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = env();
        generated(env, 400, 100, 3)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .set("write-format", format)
                                .build());
        env.execute("append " + format);

        assertThat(rows(loader)).isEqualTo(expected(400, 3));
        List<Snapshot> snapshots = snapshots(loader);
        assertThat(snapshots).isNotEmpty();
        for (Snapshot snapshot : snapshots) {
            assertThat(snapshot.operation()).isEqualTo("append");
            assertThat(snapshot.summary())
                    .containsKeys(
                            "flink.job-id",
                            "flink.operator-id",
                            "flink.max-committed-checkpoint-id");
            for (DataFile file : addedFiles(loader, snapshot)) {
                assertThat(file.format()).isEqualTo(FileFormat.fromString(format));
            }
        }
        // one snapshot per checkpoint, never one per writer. A snapshot is identified by its
        // (max-committed, end-of-input) pair: the end-of-input commit records the last regular
        // checkpoint as its max (so that a later job under a fixed job id is not blocked) and its
        // own id under flink.end-of-input-checkpoint-id, so its max may equal the previous one's
        List<String> commitIds =
                snapshots.stream()
                        .map(
                                s ->
                                        s.summary().get("flink.max-committed-checkpoint-id")
                                                + "/"
                                                + s.summary()
                                                        .get("flink.end-of-input-checkpoint-id"))
                        .collect(Collectors.toList());
        assertThat(commitIds).doesNotHaveDuplicates();
        assertThat(
                        snapshots.stream()
                                .filter(
                                        s ->
                                                !s.summary()
                                                        .containsKey(
                                                                "flink.end-of-input-checkpoint-id"))
                                .map(s -> s.summary().get("flink.max-committed-checkpoint-id")))
                .as("regular checkpoints %s", commitIds)
                .doesNotHaveDuplicates();
        assertThat(
                        snapshots.stream()
                                .filter(
                                        s ->
                                                s.summary()
                                                        .containsKey(
                                                                "flink.end-of-input-checkpoint-id")))
                .hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void appendsIntoFormatV1Tables() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 1);
        StreamExecutionEnvironment env = env();
        input(env, List.of(row(1, "a", "x"), row(2, "b", "y")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute();
        assertThat(rows(loader)).containsExactly("1:a:x", "2:b:y");
    }

    @Test
    void dynamicOverwriteReplacesOnlyTouchedPartitions() throws Exception {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = env();
        input(env, List.of(row(1, "a", "x"), row(2, "b", "y"), row(3, "c", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute();

        StreamExecutionEnvironment env2 = env();
        env2.setRuntimeMode(RuntimeExecutionMode.BATCH);
        input(env2, List.of(row(4, "d", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).overwrite(true).build());
        env2.execute();
        assertThat(rows(loader)).containsExactly("2:b:y", "4:d:x");
        assertThat(SinkTestTables.load(loader).currentSnapshot().operation())
                .isEqualTo("overwrite");
    }

    @Test
    void dynamicOverwriteOfAnUnpartitionedTableReplacesEverything() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env();
        input(env, List.of(row(1, "a", "x"), row(2, "b", "y")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute();
        StreamExecutionEnvironment env2 = env();
        input(env2, List.of(row(3, "c", "z")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).overwrite(true).build());
        env2.execute();
        assertThat(rows(loader)).containsExactly("3:c:z");
    }

    @Test
    void staticOverwriteReplacesTheGivenPartition() throws Exception {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = env();
        input(env, List.of(row(1, "a", "x"), row(2, "b", "y"), row(3, "c", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute();

        StreamExecutionEnvironment env2 = env();
        env2.setRuntimeMode(RuntimeExecutionMode.BATCH);
        input(env2, List.of(row(5, "e", "x"), row(6, "f", "x")))
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .overwritePartition(Map.of("part", "x"))
                                .build());
        env2.execute();
        assertThat(rows(loader)).containsExactly("2:b:y", "5:e:x", "6:f:x");
    }

    @Test
    void upsertKeepsTheLastChangePerKeyIncludingSeveralUpdatesInOneCheckpoint() throws Exception {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = env();
        input(
                        env,
                        List.of(
                                row(1, "a", "x"),
                                row(2, "b", "x"),
                                row(3, "c", "y"),
                                row(RowKind.UPDATE_BEFORE, 1, "a", "x"),
                                row(RowKind.UPDATE_AFTER, 1, "a2", "x"),
                                row(1, "a3", "x"),
                                row(RowKind.UPDATE_AFTER, 1, "a4", "x"),
                                row(RowKind.DELETE, 2, null, "x"),
                                row(3, "c2", "y")))
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id", "part"))
                                .build());
        env.execute();
        assertThat(rows(loader)).containsExactly("1:a4:x", "3:c2:y");

        // a second job replaces and deletes rows committed by the first
        StreamExecutionEnvironment env2 = env();
        input(
                        env2,
                        List.of(
                                row(RowKind.UPDATE_AFTER, 1, "a5", "x"),
                                row(RowKind.DELETE, 3, "c2", "y"),
                                row(7, "g", "y")))
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id", "part"))
                                .build());
        env2.execute();
        assertThat(rows(loader)).containsExactly("1:a5:x", "7:g:y");
    }

    @Test
    void upsertAcrossManyCheckpointsInBothRuntimeModes() throws Exception {
        for (RuntimeExecutionMode mode :
                List.of(RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH)) {
            TableLoader loader =
                    tables.create(
                            PartitionSpec.unpartitioned(),
                            2,
                            Map.of("write.upsert.enabled", "true"));
            StreamExecutionEnvironment env = env();
            env.setRuntimeMode(mode);
            // 600 changes over 30 keys: key i % 30, the last value of each key wins
            GeneratorFunction<Long, RowData> generator = i -> row(i % 30, "v" + i, "p");
            env.fromSource(
                            new DataGeneratorSource<>(
                                    generator,
                                    600,
                                    mode == RuntimeExecutionMode.BATCH
                                            ? RateLimiterStrategy.noOp()
                                            : RateLimiterStrategy.perCheckpoint(150),
                                    TYPE_INFO),
                            // BATCH sorts keyed input by key, then by timestamp: the order of
                            // the changes of one key is their timestamp order
                            WatermarkStrategy.<RowData>forMonotonousTimestamps()
                                    .withTimestampAssigner(
                                            (row, previous) ->
                                                    Long.parseLong(
                                                            row.getString(1)
                                                                    .toString()
                                                                    .substring(1))),
                            "changes")
                    .setParallelism(1)
                    .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
            env.execute("upsert " + mode);
            List<String> expected =
                    LongStream.range(570, 600)
                            .mapToObj(i -> (i % 30) + ":v" + i + ":p")
                            .sorted()
                            .collect(Collectors.toList());
            assertThat(rows(loader)).as(mode.name()).isEqualTo(expected);
        }
    }

    /**
     * With the promise of unique keys the rows go from the parallel input straight to the writers
     * (no key shuffle, no de-duplication), and each still replaces or deletes the committed row of
     * its key.
     */
    @Test
    void upsertWithUniqueKeysReplacesAndDeletesCommittedRowsInBothRuntimeModes() throws Exception {
        for (RuntimeExecutionMode mode :
                List.of(RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH)) {
            TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
            StreamExecutionEnvironment first = env();
            first.setRuntimeMode(mode);
            input(first, IntStream.range(0, 100).mapToObj(i -> row(i, "v" + i, "p0")).toList())
                    .sinkTo(IcebergSink.forRowData().tableLoader(loader).upsert(true).build());
            first.execute("base " + mode);

            // ids 50..149 once each: every third id is deleted, the others get a new value
            StreamExecutionEnvironment env = env();
            env.setRuntimeMode(mode);
            GeneratorFunction<Long, RowData> changes =
                    i -> {
                        long id = 50 + i;
                        return id % 3 == 0
                                ? row(RowKind.DELETE, id, null, "p0")
                                : row(
                                        id % 2 == 0 ? RowKind.UPDATE_AFTER : RowKind.INSERT,
                                        id,
                                        "new" + id,
                                        "p0");
                    };
            env.fromSource(
                            new DataGeneratorSource<>(
                                    changes,
                                    100,
                                    mode == RuntimeExecutionMode.BATCH
                                            ? RateLimiterStrategy.noOp()
                                            : RateLimiterStrategy.perCheckpoint(25),
                                    TYPE_INFO),
                            WatermarkStrategy.noWatermarks(),
                            "unique changes")
                    .setParallelism(2)
                    .sinkTo(
                            IcebergSink.forRowData()
                                    .tableLoader(loader)
                                    .upsert(true)
                                    .upsertUniqueKeys(true)
                                    .build());
            env.execute("unique upsert " + mode);

            List<String> expected = new ArrayList<>();
            for (long id = 0; id < 150; id++) {
                if (id < 50) {
                    expected.add(id + ":v" + id + ":p0");
                } else if (id % 3 != 0) {
                    expected.add(id + ":new" + id + ":p0");
                }
            }
            expected.sort(null);
            assertThat(rows(loader)).as(mode.name()).isEqualTo(expected);
        }
    }

    @Test
    void changelogIntoV2TablesAppliesRetractions() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env();
        input(
                        env,
                        List.of(
                                row(1, "a", "x"),
                                row(2, "b", "x"),
                                row(3, "c", "x"),
                                row(RowKind.UPDATE_BEFORE, 1, "a", "x"),
                                row(RowKind.UPDATE_AFTER, 1, "a2", "x"),
                                row(RowKind.DELETE, 2, "b", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute();
        assertThat(rows(loader)).containsExactly("1:a2:x", "3:c:x");

        StreamExecutionEnvironment env2 = env();
        input(
                        env2,
                        List.of(
                                row(RowKind.UPDATE_BEFORE, 1, "a2", "x"),
                                row(RowKind.UPDATE_AFTER, 1, "a3", "x"),
                                row(RowKind.DELETE, 3, "c", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env2.execute();
        assertThat(rows(loader)).containsExactly("1:a3:x");
    }

    @Test
    void insertOnlyInputKeepsEveryRowOfAKeyInAppendSnapshotsAndRejectsRetractions()
            throws Exception {
        // the tests' schema has identifier field 'id'; without insertOnly the second row of key 1
        // in the same checkpoint would replace the first
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = env();
        input(env, List.of(row(1, "a", "x"), row(2, "b", "y"), row(1, "a-again", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).insertOnly(true).build());
        env.execute();
        assertThat(rows(loader)).containsExactly("1:a-again:x", "1:a:x", "2:b:y");
        assertThat(snapshots(loader)).allMatch(s -> s.operation().equals("append"));

        StreamExecutionEnvironment env2 = env();
        input(env2, List.of(row(3, "c", "x"), row(RowKind.DELETE, 1, "a", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).insertOnly(true).build());
        assertThatThrownBy(env2::execute)
                .satisfies(
                        failure ->
                                assertThat(ExceptionUtils.stringifyException(failure))
                                        .contains("DELETE")
                                        .contains("declared insert-only"));
        assertThat(rows(loader)).containsExactly("1:a-again:x", "1:a:x", "2:b:y");
    }
}
