package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.RewriteEqualityDeletes;
import dev.icebergflink.maintenance.api.TableMaintenance;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.testing.Jobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A streaming upsert job (checkpoints every 200 ms, keys updated many times across checkpoints,
 * some deleted and written again later) with a {@link TableMaintenance} topology running {@link
 * RewriteEqualityDeletes} in the same job: afterwards no equality delete is left, and Iceberg's
 * generic reader and this connector's reader both read exactly the final state of the input.
 *
 * <p>Format v2 runs on an unpartitioned table upserting on {@code id} (its equality deletes apply
 * to the whole table); format v3 on a table partitioned by {@code part}, upserting on {@code (id,
 * part)} (the sink requires partition columns in the key; {@code part} follows from {@code id}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RewriteEqualityDeletesITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final int EVENTS = 1200;
    private static final int KEYS = 120;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir Path dir;

    @ParameterizedTest(name = "format v{0}")
    @ValueSource(ints = {2, 3})
    void equalityDeletesBecomePositionDeletesWhileTheUpsertWriterCommits(int formatVersion)
            throws Exception {
        boolean partitioned = formatVersion >= 3;
        Table table = createTable(formatVersion, partitioned);
        StreamExecutionEnvironment env = streamingEnv();
        upsertGeneratedRows(env, table, partitioned);
        TableMaintenance.forTable(env, loader(table))
                .uidSuffix("eqdel")
                .rateLimit(Duration.ofMillis(300))
                .lockCheckDelay(Duration.ofMillis(200))
                .parallelism(2)
                .add(RewriteEqualityDeletes.builder().scheduleOnEqDeleteFileCount(1))
                .append();
        List<String> expected = expectedRows();

        JobClient job = env.executeAsync("upsert with equality-delete conversion");
        try {
            Conditions.await(
                    "every change committed and every equality delete converted",
                    WAIT,
                    // the expected rows hold the input's last change, so every commit is in
                    () ->
                            ReaderRows.liveEqualityDeletes(table) == 0
                                    && conversions(table) > 0
                                    && MaintenanceTables.rows(table).equals(expected));
        } finally {
            Jobs.cancelAndWait(job);
        }

        table.refresh();
        assertThat(ReaderRows.liveEqualityDeletes(table)).isZero();
        assertThat(ReaderRows.appliedEqualityDeletes(table)).isZero();
        assertThat(MaintenanceTables.rows(table)).isEqualTo(expected);
        assertThat(ReaderRows.rows(table)).isEqualTo(expected);
        assertThat(conversions(table)).isPositive();
        if (formatVersion >= 3) {
            for (FileScanTask task : ReaderRows.tasks(table)) {
                assertThat(task.deletes()).hasSizeLessThanOrEqualTo(1);
                assertThat(task.deletes())
                        .allSatisfy(delete -> assertThat(ContentFileUtil.isDV(delete)).isTrue());
            }
        }
    }

    private Table createTable(int formatVersion, boolean partitioned) {
        Map<String, String> properties =
                Map.of(
                        TableProperties.FORMAT_VERSION,
                        Integer.toString(formatVersion),
                        TableProperties.COMMIT_NUM_RETRIES,
                        "20");
        return new HadoopTables(new org.apache.hadoop.conf.Configuration())
                .create(
                        MaintenanceTables.SCHEMA,
                        partitioned ? MaintenanceTables.BY_PART : PartitionSpec.unpartitioned(),
                        properties,
                        dir.resolve("t").toUri().toString());
    }

    private static StreamExecutionEnvironment streamingEnv() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        return env;
    }

    /** The key of event {@code i}: every key changes about every KEYS events. */
    private static long key(long i) {
        return (i * 7) % KEYS;
    }

    /** Whether event {@code i} deletes its key (about one in nine). */
    private static boolean deletes(long i) {
        return i % 9 == 4;
    }

    private static String part(long id) {
        return "p" + (id % 4);
    }

    /** EVENTS upserts and deletes, about 100 per checkpoint, through our sink in upsert mode. */
    private static void upsertGeneratedRows(
            StreamExecutionEnvironment env, Table table, boolean partitioned) {
        GeneratorFunction<Long, RowData> generator =
                i -> {
                    long id = key(i);
                    GenericRowData row =
                            GenericRowData.of(
                                    id,
                                    StringData.fromString("v" + i),
                                    StringData.fromString(part(id)));
                    row.setRowKind(deletes(i) ? RowKind.DELETE : RowKind.UPDATE_AFTER);
                    return row;
                };
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                EVENTS,
                                RateLimiterStrategy.perCheckpoint(100),
                                InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema()))),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader(table))
                                .upsert(true)
                                .equalityFieldColumns(
                                        partitioned ? List.of("id", "part") : List.of("id"))
                                .build())
                .setParallelism(1);
    }

    /** The input replayed in order: the last upsert of each key not deleted after it. */
    private static List<String> expectedRows() {
        Map<Long, String> state = new TreeMap<>();
        Set<Long> deleted = new HashSet<>();
        int writtenAgainAfterDelete = 0;
        for (long i = 0; i < EVENTS; i++) {
            long id = key(i);
            if (deletes(i)) {
                state.remove(id);
                deleted.add(id);
            } else {
                if (deleted.remove(id)) {
                    writtenAgainAfterDelete++;
                }
                state.put(id, id + ":v" + i + ":" + part(id));
            }
        }
        // the input does delete keys and write them again later, across checkpoints
        assertThat(writtenAgainAfterDelete).isGreaterThan(10);
        assertThat(state.size()).isLessThan(KEYS);
        List<String> rows = new ArrayList<>(state.values());
        rows.sort(null);
        return rows;
    }

    private static TableLoader loader(Table table) {
        return TableLoader.fromHadoopTable(table.location());
    }

    private static int conversions(Table table) {
        int count = 0;
        for (Snapshot snapshot : table.snapshots()) {
            if (DataOperations.REPLACE.equals(snapshot.operation())) {
                count++;
            }
        }
        return count;
    }
}
