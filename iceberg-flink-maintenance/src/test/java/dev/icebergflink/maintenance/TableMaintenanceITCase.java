package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.api.ExpireSnapshots;
import dev.icebergflink.maintenance.api.RewriteDataFiles;
import dev.icebergflink.maintenance.api.TableMaintenance;
import dev.icebergflink.testing.Jobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A streaming append job with checkpoints every 200 ms and a {@link TableMaintenance} topology in
 * the same job: the maintenance tasks run while the writer commits, and the table keeps exactly the
 * rows written.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TableMaintenanceITCase {

    /** The maintenance metrics of the jobs, kept after they end. */
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String CHECKPOINT_KEY = StreamingAppends.CHECKPOINT_KEY;
    private static final int ROWS = 3000;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir Path dir;

    /** The compaction's trigger: after 4 commits, 16 data files, or 16 small files' bytes. */
    private static RewriteDataFiles.Builder compaction(String trigger) {
        RewriteDataFiles.Builder rewrite = RewriteDataFiles.builder().minInputFiles(2);
        return switch (trigger) {
            case "commits" -> rewrite.scheduleOnCommitCount(4);
            case "data files" -> rewrite.scheduleOnDataFileCount(16);
            case "data bytes" -> rewrite.scheduleOnDataFileSize(16 * 800L);
            default -> throw new IllegalArgumentException(trigger);
        };
    }

    @ParameterizedTest(name = "compaction on {0}")
    @ValueSource(strings = {"commits", "data files", "data bytes"})
    void compactsAndExpiresWhileAStreamingWriterCommits(String trigger) throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        StreamExecutionEnvironment env = StreamingAppends.env(0);
        StreamingAppends.append(env, table, ROWS);
        TableMaintenance.forTable(env, StreamingAppends.loader(table))
                .uidSuffix("it")
                .rateLimit(Duration.ofMillis(300))
                .lockCheckDelay(Duration.ofMillis(200))
                .parallelism(2)
                .add(compaction(trigger))
                .add(
                        ExpireSnapshots.builder()
                                .scheduleOnCommitCount(6)
                                .maxSnapshotAge(Duration.ZERO)
                                .retainLast(3)
                                .deleteBatchSize(2))
                .append();

        Set<Long> seenSnapshots = new HashSet<>();
        Set<Long> rewritesSeen = new HashSet<>();
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
                        return StreamingAppends.committedRows(table) == ROWS
                                && StreamingAppends.rewriteSeen(table, rewritesSeen)
                                && expired(table, seenSnapshots) > 0;
                    });
            // The deleting workers of the last expiration may still be at work.
            Conditions.await(
                    "the manifest lists of expired snapshots deleted",
                    WAIT,
                    () -> {
                        table.refresh();
                        Set<String> expiredLists = new HashSet<>(seenManifestLists);
                        table.snapshots()
                                .forEach(s -> expiredLists.remove(s.manifestListLocation()));
                        return expiredLists.stream()
                                .noneMatch(
                                        list ->
                                                new java.io.File(
                                                                java.net.URI.create(list).getPath())
                                                        .exists());
                    });
            assertMetrics(job.getJobID());
        } finally {
            Jobs.cancelAndWait(job);
        }

        table.refresh();
        assertThat(MaintenanceTables.rows(table)).isEqualTo(StreamingAppends.expectedRows(ROWS));
        // Compacted: fewer files than the writer's commits made.
        assertThat(MaintenanceTables.dataFiles(table).size())
                .isLessThan(StreamingAppends.uncompactedFiles(table));
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
                .isEqualTo(Integer.toString(StreamingAppends.maxCheckpoint(table)));
    }

    /** Each task's runs are counted and described in the task's metrics. */
    private static void assertMetrics(JobID job) {
        assertThat(counter(job, "RewriteDataFiles", "triggered")).isPositive();
        assertThat(counter(job, "RewriteDataFiles", "succeeded")).isPositive();
        assertThat(counter(job, "RewriteDataFiles", "filesAdded")).isPositive();
        assertThat(counter(job, "RewriteDataFiles", "filesRemoved"))
                .isGreaterThan(counter(job, "RewriteDataFiles", "filesAdded"));
        assertThat(counter(job, "ExpireSnapshots", "succeeded")).isPositive();
        assertThat(counter(job, "ExpireSnapshots", "filesRemoved")).isPositive();
        assertThat(counter(job, "ExpireSnapshots", "filesAdded")).isZero();
        assertThat(counter(job, "RewriteDataFiles", "failed")).isZero();
        Metric duration = metric(job, "RewriteDataFiles", "lastRunDurationMs");
        assertThat(((Gauge<?>) duration).getValue()).isInstanceOf(Long.class);
    }

    private static long counter(JobID job, String task, String name) {
        return ((Counter) metric(job, task, name)).getCount();
    }

    private static Metric metric(JobID job, String task, String name) {
        Map<String, Metric> found =
                METRICS.findMetrics(job, ".*maintenance\\.task\\." + task + "\\." + name);
        assertThat(found).as("metric %s of task %s", name, task).hasSize(1);
        return found.values().iterator().next();
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
