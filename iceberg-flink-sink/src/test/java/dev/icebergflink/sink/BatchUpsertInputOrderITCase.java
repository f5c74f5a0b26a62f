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
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many keys with many changes each, from one input subtask in a known order: the last change of
 * every key is what a bounded job leaves in the table.
 *
 * <p>In BATCH execution the writers track keys and delete the rows later changes replaced ({@code
 * SupersededRows}); no keyed exchange sorts the rows. In AUTOMATIC execution the sink keeps the
 * keyed de-duplication, and Flink sorts its bounded keyed input by key with a sort that is not
 * stable: there the sink stamps each row with its input position, which the sort compares after the
 * key ({@code InputOrderStamper}), or changes of one key would reach the de-duplication in any
 * order.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BatchUpsertInputOrderITCase extends SinkITCaseBase {

    private static final int KEYS = 300;
    private static final int VERSIONS = 40;

    private static StreamExecutionEnvironment batchEnv() {
        return env(RuntimeExecutionMode.BATCH);
    }

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
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

    /** A sink that upserts (or, without upsert, writes the changelog) keyed by {@code id}. */
    private static IcebergSink.Builder keyedById(TableLoader loader, boolean upsert) {
        return IcebergSink.forRowData()
                .tableLoader(loader)
                .upsert(upsert)
                .equalityFieldColumns(List.of("id"));
    }

    @ParameterizedTest(name = "{0} upsert={1}")
    @CsvSource({"BATCH, true", "BATCH, false", "AUTOMATIC, true", "AUTOMATIC, false"})
    void theLastChangeOfEveryKeyWins(RuntimeExecutionMode mode, boolean upsert) throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env(mode);
        env.fromData(changes(upsert), TYPE_INFO)
                .setParallelism(1)
                .sinkTo(keyedById(loader, upsert).build());
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(lastVersions());
    }

    /**
     * Through the whole sink (writer results, aggregation, temporary manifests, commit): format v3
     * tables get deletion vectors for the replaced rows, format v2 tables position delete files; a
     * {@code hash} upsert into a partitioned table routes by partition.
     */
    @ParameterizedTest(name = "v{0} {1}")
    @CsvSource({"2, NONE", "3, NONE", "2, HASH", "3, HASH"})
    void replacedRowsOfPartitionedTablesAreDeletedByPosition(
            int formatVersion, DistributionMode distribution) throws Exception {
        TableLoader loader = tables.create(SinkTestTables.BY_PART, formatVersion);
        StreamExecutionEnvironment env = batchEnv();
        env.fromData(changes(true), TYPE_INFO)
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id", "part"))
                                .distributionMode(distribution)
                                .build());
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(lastVersions());
        Table table = SinkTestTables.load(loader);
        List<FileFormat> deleteFormats = new ArrayList<>();
        long positionDeletes = 0;
        for (DeleteFile delete : table.currentSnapshot().addedDeleteFiles(table.io())) {
            if (delete.content() == FileContent.POSITION_DELETES) {
                deleteFormats.add(delete.format());
                positionDeletes += delete.recordCount();
            }
        }
        // every version but the last of every key was written, then replaced
        assertThat(positionDeletes).isEqualTo((long) KEYS * (VERSIONS - 1));
        assertThat(deleteFormats)
                .isNotEmpty()
                .containsOnly(formatVersion >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET);
    }

    @Test
    void keysThatSpillToDiskStillLeaveOnlyTheLastChange() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        Path spill = warehouse.resolve("spill");
        StreamExecutionEnvironment env = batchEnv();
        env.fromData(changes(true), TYPE_INFO)
                .setParallelism(1)
                .sinkTo(
                        keyedById(loader, true)
                                // 12,000 changes: a few hundred runs per writer
                                .set("upsert-key-memory", "1 kb")
                                .set("upsert-spill-directory", spill.toString())
                                .build());
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(lastVersions());
        assertThat(spill).isDirectory().isEmptyDirectory();
    }

    /**
     * Rows with event times of their own: in AUTOMATIC execution Flink's sort compares timestamps
     * after the key, so the sink's stamped input positions must still order one key's changes.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"BATCH", "AUTOMATIC"})
    void theLastChangeWinsWhenTheRowsCarryTimestampsOfTheirOwn(RuntimeExecutionMode mode)
            throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env(mode);
        // every row has the same event time
        env.fromData(changes(true), TYPE_INFO)
                .setParallelism(1)
                .assignTimestampsAndWatermarks(
                        org.apache.flink.api.common.eventtime.WatermarkStrategy
                                .<RowData>noWatermarks()
                                .withTimestampAssigner((row, previous) -> 1000L))
                .setParallelism(1)
                .sinkTo(keyedById(loader, true).build());
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(lastVersions());
    }
}
