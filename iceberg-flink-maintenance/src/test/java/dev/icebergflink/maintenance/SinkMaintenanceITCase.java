package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.maintenance.task.TaskFailures;
import dev.icebergflink.sink.IcebergSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Maintenance after the sink's commits: one {@code sinkTo} with {@code compaction(true)} and the
 * {@code flink-maintenance.*} settings keeps its table compacted and its history short while it
 * writes, also through a maintenance failure, and bad settings fail when the sink is built.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SinkMaintenanceITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    /** Rows committed before the test stops an unbounded writer (it runs until then). */
    private static final int MIN_ROWS = 1000;

    private static final Duration WAIT = Duration.ofSeconds(150);

    @TempDir Path dir;

    @AfterEach
    void clearHooks() {
        TaskFailures.clear();
    }

    private static IcebergSink.Builder sink(Table table) {
        return IcebergSink.forRowData()
                .tableLoader(StreamingAppends.loader(table))
                .set("flink-maintenance.rate-limit-seconds", "1")
                .set("flink-maintenance.lock-check-delay-seconds", "1");
    }

    @Test
    void aSinkWithCompactionExpirationAndOrphanDeletionKeepsItsTableHealthy() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        StreamExecutionEnvironment env = StreamingAppends.env(0);
        StreamingAppends.append(
                env,
                table,
                StreamingAppends.UNBOUNDED,
                sink(table)
                        .compaction(true)
                        .rewriteDataFiles(
                                Map.of("schedule.commit-count", "3", "min-input-files", "2"))
                        .expireSnapshots(
                                Map.of(
                                        "flink-maintenance.expire-snapshots.schedule.commit-count",
                                        "5",
                                        "max-snapshot-age-seconds",
                                        "0",
                                        "retain-last",
                                        "3"))
                        .deleteOrphanFiles(
                                Map.of("schedule.commit-count", "4", "min-age-seconds", "600")));
        // An orphan a failed write left behind an hour ago.
        Path dataDir = Path.of(java.net.URI.create(table.location() + "/data"));
        java.nio.file.Files.createDirectories(dataDir);
        Path orphan = java.nio.file.Files.writeString(dataDir.resolve("orphan.parquet"), "left");
        java.nio.file.Files.setLastModifiedTime(
                orphan,
                java.nio.file.attribute.FileTime.fromMillis(
                        System.currentTimeMillis() - 3_600_000L));
        Set<Long> seen = new HashSet<>();
        Set<Long> rewritesSeen = new HashSet<>();

        JobClient job = env.executeAsync("sink with maintenance");
        try {
            Conditions.await(
                    "every row committed, compacted and expired",
                    WAIT,
                    () -> {
                        table.refresh();
                        table.snapshots().forEach(s -> seen.add(s.snapshotId()));
                        Set<Long> now = new HashSet<>();
                        table.snapshots().forEach(s -> now.add(s.snapshotId()));
                        return StreamingAppends.committedRows(table) >= MIN_ROWS
                                && StreamingAppends.rewriteSeen(table, rewritesSeen)
                                && !now.containsAll(seen)
                                && !java.nio.file.Files.exists(orphan);
                    });
        } finally {
            Conditions.stop(job);
        }

        table.refresh();
        assertThat(MaintenanceTables.rows(table))
                .isEqualTo(StreamingAppends.expectedRows(StreamingAppends.committedRows(table)));
        assertThat(MaintenanceTables.dataFiles(table).size())
                .isLessThan(StreamingAppends.uncompactedFiles(table));
        assertThat(newestFlinkCommit(table))
                .as("the writer's last commit survives expiration")
                .isNotNull();
    }

    @Test
    void compactionEnabledAsAFlinkConfigurationKeyAndThroughAMaintenanceFailure() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        AtomicInteger failures = new AtomicInteger();
        AtomicLong failedAt = new AtomicLong(Long.MAX_VALUE);
        TaskFailures.afterPlanning(
                timestamp -> {
                    if (failures.compareAndSet(0, 1)) {
                        failedAt.set(System.currentTimeMillis());
                        throw new IllegalStateException("injected failure of run " + timestamp);
                    }
                });
        Configuration jobConf = new Configuration();
        jobConf.setString("compaction-enabled", "true");
        jobConf.setString("flink-maintenance.rewrite.schedule.commit-count", "3");
        jobConf.setString("flink-maintenance.rewrite.min-input-files", "2");
        StreamExecutionEnvironment env = StreamingAppends.env(5);
        StreamingAppends.append(
                env, table, StreamingAppends.UNBOUNDED, sink(table).flinkConf(jobConf));

        JobClient job = env.executeAsync("sink with maintenance, failing once");
        try {
            Conditions.await(
                    "the injected failure, a compaction after it, and every row committed",
                    WAIT,
                    () -> {
                        table.refresh();
                        return failures.get() == 1
                                && StreamingAppends.rewritesAfter(table, failedAt.get()) > 0
                                && StreamingAppends.committedRows(table) >= MIN_ROWS;
                    });
        } finally {
            Conditions.stop(job);
        }

        table.refresh();
        assertThat(MaintenanceTables.rows(table))
                .isEqualTo(StreamingAppends.expectedRows(StreamingAppends.committedRows(table)));
    }

    @Test
    void badMaintenanceSettingsFailWhenTheSinkIsBuilt() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        assertThatThrownBy(
                        () ->
                                sink(table)
                                        .set("compaction-enabled", "true")
                                        .set("flink-maintenance.rewrite.schedule.comit-count", "3")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'flink-maintenance.rewrite.schedule.comit-count'")
                .hasMessageContaining("flink-maintenance.rewrite.schedule.commit-count");
        assertThatThrownBy(
                        () ->
                                sink(table)
                                        .rewriteDataFiles(Map.of("schedule.commit-count", "0"))
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleOnCommitCount must be positive, got 0");
        assertThatThrownBy(
                        () ->
                                sink(table)
                                        .compaction(true)
                                        .set("flink-maintenance.lock.type", "zookeeper")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'flink-maintenance.lock.type' is 'zookeeper'");
        assertThatThrownBy(
                        () ->
                                sink(table)
                                        .compaction(true)
                                        .set("flink-maintenance.lock.type", "jdbc")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'flink-maintenance.lock.jdbc.uri' is not set");
        assertThatThrownBy(
                        () ->
                                sink(table)
                                        .compaction(true)
                                        .set("flink-maintenance.rate-limit-seconds", "soon")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flink-maintenance.rate-limit-seconds");
    }

    private static Snapshot newestFlinkCommit(Table table) {
        Snapshot current = table.currentSnapshot();
        while (current != null) {
            if (current.summary().containsKey(StreamingAppends.CHECKPOINT_KEY)) {
                return current;
            }
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        return null;
    }
}
