package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.BY_PART;
import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.CommitSummaryKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs submitted again under the same, fixed job id (as application mode with high availability
 * does): a restore from an older savepoint and a fresh start commit every row of their own exactly
 * once, although an earlier submission of the same job id already committed the same checkpoint
 * ids.
 *
 * <p>Each submission gets a MiniCluster of its own, as a restarted application cluster would (one
 * cluster does not accept a job id twice).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FixedJobIdRestoreITCase {

    private static final JobID FIXED = JobID.fromHexString("0123456789abcdef0123456789abcdef");
    private static final int N = 1200;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir Path dir;
    private TableLoader loader;

    @BeforeEach
    void createTable() {
        loader = new SinkTestTables(dir.resolve("warehouse")).create(BY_PART, 2);
    }

    /**
     * A generator of rows {@code (i, tag + i, p<i % 3>)}, throttled to {@code rowsPerCheckpoint}
     * (0: not throttled, and no checkpoint for an hour), into an append sink.
     */
    private JobGraph job(String tag, int rowsPerCheckpoint, String restoreFrom) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(rowsPerCheckpoint > 0 ? 100 : 3_600_000);
        GeneratorFunction<Long, RowData> generator = i -> row(i, tag + i, "p" + (i % 3));
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                N,
                                rowsPerCheckpoint > 0
                                        ? RateLimiterStrategy.perCheckpoint(rowsPerCheckpoint)
                                        : RateLimiterStrategy.noOp(),
                                TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "generator")
                .uid("generator")
                // one reader, so that the rows committed up to any checkpoint are ids 0..n-1
                .setParallelism(1)
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).uidSuffix("fixed").build());
        JobGraph graph = env.getStreamGraph().getJobGraph();
        graph.setJobID(FIXED);
        if (restoreFrom != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(restoreFrom, false));
        }
        return graph;
    }

    private static MiniCluster cluster() throws Exception {
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(4)
                                // builds of several Flink lines run at once on one machine
                                .withRandomPorts()
                                .build());
        cluster.start();
        return cluster;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " before the deadline").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private int commits() {
        return SinkTestTables.snapshots(loader).size();
    }

    /** The ids of the table's rows per tag (the data column without the id), sorted. */
    private Map<String, List<Long>> idsByTag() {
        Map<String, List<Long>> ids = new TreeMap<>();
        for (String row : SinkTestTables.rows(loader)) {
            String[] fields = row.split(":");
            long id = Long.parseLong(fields[0]);
            String tag = fields[1].substring(0, fields[1].length() - fields[0].length());
            ids.computeIfAbsent(tag, t -> new ArrayList<>()).add(id);
        }
        ids.values().forEach(list -> list.sort(Long::compare));
        return ids;
    }

    private static List<Long> range(long from, long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }

    /**
     * Runs a first submission (rows tagged "a") until the table has {@code commits} snapshots, then
     * stops it with a savepoint, which commits everything up to it.
     *
     * @return the savepoint's location
     */
    private String firstSubmissionUntilSavepoint(int commits) throws Exception {
        try (MiniCluster cluster = cluster()) {
            cluster.submitJob(job("a", 60, null)).get();
            await(commits + " commits of the first submission", () -> commits() >= commits);
            return cluster.stopWithSavepoint(
                            FIXED,
                            dir.resolve("savepoints").toUri().toString(),
                            false,
                            SavepointFormatType.CANONICAL)
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void restoringAnOlderSavepointAndStartingAfreshUnderTheSameJobIdLoseNothing() throws Exception {
        // submission 1: a few commits, then a savepoint (stop-with-savepoint commits up to it)
        String savepoint = firstSubmissionUntilSavepoint(2);
        int atSavepoint = SinkTestTables.rows(loader).size();
        assertThat(idsByTag()).containsOnlyKeys("a").containsEntry("a", range(0, atSavepoint));

        // submission 2 restores the savepoint and commits further checkpoints, then is cancelled
        int commitsAtSavepoint = commits();
        try (MiniCluster cluster = cluster()) {
            cluster.submitJob(job("a", 60, savepoint)).get();
            await(
                    "three commits of the second submission",
                    () -> commits() >= commitsAtSavepoint + 3);
            cluster.cancelJob(FIXED).get();
            await(
                    "the cancellation",
                    () -> cluster.getJobStatus(FIXED).join() == JobStatus.CANCELED);
        }
        List<Long> secondRun = idsByTag().get("a");
        int committedBySecond = secondRun.size();
        assertThat(committedBySecond).isGreaterThan(atSavepoint);
        assertThat(secondRun).isEqualTo(range(0, committedBySecond));

        // submission 3 restores the same, older savepoint with other checkpoint boundaries and
        // runs to the end: its checkpoint ids repeat those submission 2 committed, yet every one
        // of its rows lands, exactly once
        try (MiniCluster cluster = cluster()) {
            cluster.submitJob(job("b", 90, savepoint)).get();
            assertThat(cluster.requestJobResult(FIXED).get().isSuccess()).isTrue();
        }
        Map<String, List<Long>> afterRestore = idsByTag();
        assertThat(afterRestore.get("a")).isEqualTo(range(0, committedBySecond));
        assertThat(afterRestore.get("b")).isEqualTo(range(atSavepoint, N));

        // submission 4 starts afresh under the same job id: nothing is skipped
        try (MiniCluster cluster = cluster()) {
            cluster.submitJob(job("c", 200, null)).get();
            assertThat(cluster.requestJobResult(FIXED).get().isSuccess()).isTrue();
        }
        Map<String, List<Long>> afterFreshStart = idsByTag();
        assertThat(afterFreshStart.get("c")).isEqualTo(range(0, N));
        assertThat(afterFreshStart.get("b")).isEqualTo(range(atSavepoint, N));

        Map<String, Long> runs = new HashMap<>();
        for (Snapshot snapshot : SinkTestTables.snapshots(loader)) {
            assertThat(snapshot.summary())
                    .containsEntry(CommitSummaryKeys.JOB_ID, FIXED.toHexString());
            runs.merge(snapshot.summary().get(CommitSummaryKeys.RUN_ID), 1L, Long::sum);
        }
        assertThat(runs).as("one run id per submission").hasSize(4);
    }

    @Test
    void aRestoredJobWhoseInputEndsBeforeItsFirstCheckpointFinishes() throws Exception {
        String savepoint = firstSubmissionUntilSavepoint(3);
        int atSavepoint = SinkTestTables.rows(loader).size();
        // the rest of the input ends long before the restored job's first checkpoint: the
        // writers' final results reach the aggregation labelled with the ids they know
        try (MiniCluster cluster = cluster()) {
            cluster.submitJob(job("a", 0, savepoint)).get();
            assertThat(cluster.requestJobResult(FIXED).get().isSuccess()).isTrue();
        }
        assertThat(atSavepoint).isLessThan(N);
        assertThat(idsByTag()).containsOnlyKeys("a").containsEntry("a", range(0, N));
    }
}
