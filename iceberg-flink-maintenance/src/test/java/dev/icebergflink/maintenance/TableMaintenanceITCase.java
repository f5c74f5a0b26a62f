package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.ExpireSnapshots;
import dev.icebergflink.maintenance.api.RewriteDataFiles;
import dev.icebergflink.maintenance.api.TableMaintenance;
import dev.icebergflink.sink.IcebergSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming append job with checkpoints every 200 ms and a {@link TableMaintenance} topology in
 * the same job: the maintenance tasks run while the writer commits, and the table keeps exactly the
 * rows written.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TableMaintenanceITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String CHECKPOINT_KEY = "flink.max-committed-checkpoint-id";
    private static final int ROWS = 3000;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir Path dir;

    @Test
    void compactsAndExpiresWhileAStreamingWriterCommits() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        StreamExecutionEnvironment env = streamingEnv();
        appendGeneratedRows(env, table);
        TableMaintenance.forTable(env, loader(table))
                .uidSuffix("it")
                .rateLimit(Duration.ofMillis(300))
                .lockCheckDelay(Duration.ofMillis(200))
                .parallelism(2)
                .add(RewriteDataFiles.builder().scheduleOnCommitCount(4).minInputFiles(2))
                .add(
                        ExpireSnapshots.builder()
                                .scheduleOnCommitCount(6)
                                .maxSnapshotAge(Duration.ZERO)
                                .retainLast(3)
                                .deleteBatchSize(2))
                .append();

        Set<Long> seenSnapshots = new HashSet<>();
        Set<String> seenManifestLists = new HashSet<>();
        JobClient job = env.executeAsync("append with maintenance");
        try {
            Conditions.await(
                    "all rows committed, a compaction and an expiration",
                    WAIT,
                    () -> {
                        table.refresh();
                        for (Snapshot snapshot : table.snapshots()) {
                            if (seenSnapshots.add(snapshot.snapshotId())) {
                                seenManifestLists.add(snapshot.manifestListLocation());
                            }
                        }
                        return committedRows(table) == ROWS
                                && replaceCommits(table) > 0
                                && expired(table, seenSnapshots) > 0;
                    });
            // Let the writer's last commits be compacted: wait for a rewrite after the last append.
            Conditions.await(
                    "a compaction after the last append",
                    WAIT,
                    () -> {
                        table.refresh();
                        return DataOperations.REPLACE.equals(table.currentSnapshot().operation());
                    });
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
        }

        table.refresh();
        assertThat(MaintenanceTables.rows(table)).isEqualTo(expectedRows());
        // Four partitions, compacted: far fewer files than the writer's commits made.
        int flinkCommits = seenFlinkCommits(table, seenSnapshots);
        assertThat(MaintenanceTables.dataFiles(table).size())
                .as("data files after compaction; the writer made %d commits", flinkCommits)
                .isLessThan(flinkCommits);
        // Expired snapshots are gone with their manifest lists.
        Set<Long> remaining = new HashSet<>();
        table.snapshots().forEach(s -> remaining.add(s.snapshotId()));
        assertThat(remaining.size()).isLessThan(seenSnapshots.size());
        for (Snapshot snapshot : table.snapshots()) {
            seenManifestLists.remove(snapshot.manifestListLocation());
        }
        for (String list : seenManifestLists) {
            assertThat(new java.io.File(java.net.URI.create(list).getPath())).doesNotExist();
        }
        // The writer's last commit survives every expiration.
        assertThat(newestFlinkCommit(table)).isNotNull();
        assertThat(newestFlinkCommit(table).summary().get(CHECKPOINT_KEY))
                .isEqualTo(maxCheckpointSeen(table));
    }

    private static StreamExecutionEnvironment streamingEnv() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        return env;
    }

    /** ROWS rows into the table, about 100 per checkpoint, through our sink. */
    private static void appendGeneratedRows(StreamExecutionEnvironment env, Table table) {
        GeneratorFunction<Long, RowData> generator =
                i ->
                        GenericRowData.of(
                                i,
                                StringData.fromString("s" + i),
                                StringData.fromString("p" + (i % 4)));
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                ROWS,
                                RateLimiterStrategy.perCheckpoint(100),
                                InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema()))),
                        WatermarkStrategy.noWatermarks(),
                        "rows")
                .setParallelism(1)
                .sinkTo(IcebergSink.forRowData().tableLoader(loader(table)).build())
                .setParallelism(1);
    }

    private static TableLoader loader(Table table) {
        return TableLoader.fromHadoopTable(table.location());
    }

    private static List<String> expectedRows() {
        List<String> rows = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            rows.add(i + ":s" + i + ":p" + (i % 4));
        }
        rows.sort(null);
        return rows;
    }

    private static long committedRows(Table table) {
        Snapshot current = table.currentSnapshot();
        if (current == null) {
            return 0;
        }
        Map<String, String> summary = current.summary();
        return Long.parseLong(summary.getOrDefault("total-records", "0"));
    }

    private static int replaceCommits(Table table) {
        int count = 0;
        for (Snapshot snapshot : table.snapshots()) {
            if (DataOperations.REPLACE.equals(snapshot.operation())) {
                count++;
            }
        }
        return count;
    }

    private static int expired(Table table, Set<Long> seen) {
        Set<Long> now = new HashSet<>();
        table.snapshots().forEach(s -> now.add(s.snapshotId()));
        int gone = 0;
        for (Long id : seen) {
            if (!now.contains(id)) {
                gone++;
            }
        }
        return gone;
    }

    private static int seenFlinkCommits(Table table, Set<Long> seen) {
        return (int) Long.parseLong(maxCheckpointSeen(table));
    }

    private static String maxCheckpointSeen(Table table) {
        long max = -1;
        for (Snapshot snapshot : table.snapshots()) {
            String id = snapshot.summary() == null ? null : snapshot.summary().get(CHECKPOINT_KEY);
            if (id != null) {
                max = Math.max(max, Long.parseLong(id));
            }
        }
        return Long.toString(max);
    }

    private static Snapshot newestFlinkCommit(Table table) {
        Snapshot current = table.currentSnapshot();
        while (current != null) {
            if (current.summary() != null && current.summary().containsKey(CHECKPOINT_KEY)) {
                return current;
            }
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        return null;
    }
}
