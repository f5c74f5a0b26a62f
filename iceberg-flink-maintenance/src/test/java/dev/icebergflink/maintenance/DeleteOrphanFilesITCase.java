package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.DeleteOrphanFiles;
import dev.icebergflink.maintenance.api.TableMaintenance;
import dev.icebergflink.maintenance.cleanup.ReachableFiles;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.testing.Jobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
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
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming append job with checkpoints every 200 ms and a {@link DeleteOrphanFiles} task in the
 * same job, with a minimum age of a few seconds: the task runs every few commits and every second,
 * so the writer's own files become old enough to be candidates while it keeps writing. Planted
 * orphans go, every file the table refers to stays, and the table keeps exactly the rows written.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeleteOrphanFilesITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final int ROWS = 1200;
    private static final Duration MIN_AGE = Duration.ofSeconds(6);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir Path dir;

    @Test
    void deletesPlantedOrphansWhileAStreamingWriterCommits() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        Path root = dir.resolve("t");
        FileTime anHourAgo =
                FileTime.fromMillis(System.currentTimeMillis() - Duration.ofHours(1).toMillis());
        List<Path> orphans = new ArrayList<>();
        for (String relative :
                List.of(
                        "data/part=p0/00000-0-orphan.parquet",
                        "data/part=p1/00001-0-orphan.parquet",
                        "data/part=p3/nested/orphan.parquet",
                        "data/part=p9/orphan-in-an-unknown-partition.parquet",
                        "metadata/00042-orphan-manifest.avro",
                        "metadata/snap-42-orphan.avro")) {
            orphans.add(plant(root.resolve(relative), anHourAgo));
        }
        Path hidden = plant(root.resolve("data/part=p0/.orphan.parquet.crc"), anHourAgo);
        // Its clock says it was written an hour from now: younger than minAge all test long.
        Path young =
                plant(
                        root.resolve("data/part=p2/being-written.parquet"),
                        FileTime.fromMillis(
                                System.currentTimeMillis() + Duration.ofHours(1).toMillis()));

        StreamExecutionEnvironment env = streamingEnv();
        appendGeneratedRows(env, table);
        TableMaintenance.forTable(env, loader(table))
                .uidSuffix("orphans-it")
                .rateLimit(Duration.ofMillis(300))
                .lockCheckDelay(Duration.ofMillis(200))
                .parallelism(2)
                .add(
                        DeleteOrphanFiles.builder()
                                .scheduleOnCommitCount(3)
                                .scheduleOnInterval(Duration.ofSeconds(1))
                                .minAge(MIN_AGE)
                                .deleteBatchSize(2))
                .append();

        Set<String> seenDataFiles = new HashSet<>();
        List<Path> orphansBefore = List.copyOf(orphans);
        JobClient job = env.executeAsync("append with orphan deletion");
        try {
            Conditions.await(
                    "every row committed and every planted orphan deleted",
                    WAIT,
                    () -> {
                        table.refresh();
                        MaintenanceTables.dataFiles(table)
                                .forEach(file -> seenDataFiles.add(file.location()));
                        return committedRows(table) == ROWS
                                && orphansBefore.stream().noneMatch(Files::exists);
                    });
            // The writer's first files are older than minAge by now, so runs list them as
            // candidates; an orphan planted now goes only in a run after that, which keeps them.
            long firstCommit = firstCommitMillis(table);
            Conditions.await(
                    "the writer's first files older than minAge",
                    WAIT,
                    () -> System.currentTimeMillis() > firstCommit + MIN_AGE.toMillis() + 1000);
            Path late = plant(root.resolve("data/part=p1/late-orphan.parquet"), anHourAgo);
            orphans.add(late);
            Conditions.await("the orphan planted last deleted", WAIT, () -> !Files.exists(late));
        } finally {
            Jobs.cancelAndWait(job);
        }

        table.refresh();
        assertThat(MaintenanceTables.rows(table)).isEqualTo(expectedRows());
        for (String key : new ReachableFiles(table).allKeys()) {
            assertThat(Path.of(key)).as("a file the table refers to").exists();
        }
        assertThat(seenDataFiles).isNotEmpty();
        for (Path orphan : orphans) {
            assertThat(orphan).doesNotExist();
        }
        assertThat(young).exists();
        assertThat(hidden).exists();
    }

    private static Path plant(Path file, FileTime modified) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "not referenced by any metadata");
        Files.setLastModifiedTime(file, modified);
        return file;
    }

    private static StreamExecutionEnvironment streamingEnv() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        return env;
    }

    /** ROWS rows into the table, about 40 per checkpoint (30 commits), through our sink. */
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
                                RateLimiterStrategy.perCheckpoint(40),
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

    private static long firstCommitMillis(Table table) {
        long first = Long.MAX_VALUE;
        for (Snapshot snapshot : table.snapshots()) {
            first = Math.min(first, snapshot.timestampMillis());
        }
        return first;
    }
}
