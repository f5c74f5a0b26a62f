package dev.icebergflink.sink.committer;

import static dev.icebergflink.sink.committer.FailoverTestJobs.assertCheckpointIdsIncrease;
import static dev.icebergflink.sink.committer.FailoverTestJobs.awaitSuccess;
import static dev.icebergflink.sink.committer.FailoverTestJobs.ids;
import static dev.icebergflink.sink.committer.FailoverTestJobs.job;
import static dev.icebergflink.sink.committer.FailoverTestJobs.range;
import static dev.icebergflink.sink.committer.FailoverTestJobs.restoredFrom;
import static dev.icebergflink.sink.committer.FailoverTestJobs.snapshotCount;
import static dev.icebergflink.sink.committer.FailoverTestJobs.submit;
import static dev.icebergflink.sink.committer.FailoverTestJobs.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once of the sink under failures at the risky points: N rows, checkpoints every 100 ms,
 * one injected failure, restarts by the restart strategy; afterwards the table holds exactly the N
 * rows (by content). Also two jobs writing one table at once, and a restore of a savepoint older
 * than the latest commit.
 */
class ExactlyOnceFailoverITCase {

    private static final int N = 1200;
    private static final int ROWS_PER_CHECKPOINT = 100;

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;

    private Table table;

    @BeforeEach
    void setUp() {
        table = FailoverTestJobs.createTable(dir);
        FailOnce.reset();
        CommitterTestHooks.clear();
    }

    @AfterEach
    void clearHooks() {
        CommitterTestHooks.clear();
    }

    /** Thrown by the injected failures; an Error so that no catch in the sink swallows it. */
    static final class InjectedFailure extends Error {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String message) {
            super(message);
        }
    }

    /** Shared one-shot failure switch (the MiniCluster runs in this JVM). */
    static final class FailOnce {
        static final AtomicBoolean FIRED = new AtomicBoolean();
        static volatile boolean checkpointCompleted;
        static volatile Table table;

        static void reset() {
            FIRED.set(false);
            checkpointCompleted = false;
            table = null;
        }

        static void fire(String where) {
            if (FIRED.compareAndSet(false, true)) {
                throw new InjectedFailure("injected failure " + where);
            }
        }
    }

    /** Fails once in the writer's input after the first completed checkpoint. */
    static final class FailAfterCheckpoint
            implements MapFunction<RowData, RowData>, CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final long failAtId;

        FailAfterCheckpoint(long failAtId) {
            this.failAtId = failAtId;
        }

        @Override
        public RowData map(RowData row) {
            if (FailOnce.checkpointCompleted && row.getLong(0) >= failAtId) {
                FailOnce.fire("in the writer at row " + row.getLong(0));
            }
            return row;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            FailOnce.checkpointCompleted = true;
        }
    }

    /** Fails once as soon as a commit is visible in the table, before the next checkpoint. */
    static final class FailAfterFirstCommit implements MapFunction<RowData, RowData> {
        private static final long serialVersionUID = 1L;
        private int seen;

        @Override
        public RowData map(RowData row) {
            Table table = FailOnce.table;
            if (table != null && !FailOnce.FIRED.get() && ++seen % 10 == 0) {
                table.refresh();
                if (table.currentSnapshot() != null) {
                    FailOnce.fire("after a commit, before the next checkpoint completed");
                }
            }
            return row;
        }
    }

    private void runToEnd(MiniCluster cluster, MapFunction<RowData, RowData> inject)
            throws Exception {
        JobID job = submit(cluster, job(table, 0, N, ROWS_PER_CHECKPOINT, "t", inject));
        awaitSuccess(cluster, job);
        assertThat(ids(table)).isEqualTo(range(0, N));
        assertCheckpointIdsIncrease(table);
        assertCommitterMetrics(job);
    }

    /** The committer's metrics were registered (in every attempt) and report a commit. */
    private static void assertCommitterMetrics(JobID job) {
        List<Map<String, Metric>> committers = new ArrayList<>();
        for (OperatorMetricGroup group : REPORTER.findOperatorMetricGroups(job, ".*Committer.*")) {
            Map<String, Metric> metrics = REPORTER.getMetricsByGroup(group);
            if (metrics.containsKey(CommitterMetrics.COMMIT_DURATION)) {
                committers.add(metrics);
            }
        }
        assertThat(committers).isNotEmpty();
        assertThat(committers)
                .allSatisfy(
                        m -> {
                            assertThat(m)
                                    .containsKeys(
                                            CommitterMetrics.LAST_SUCCESSFUL_COMMIT_AGE,
                                            CommitterMetrics.FAILED_COMMITS);
                            // a commit interrupted by a failover's cancellation counts too
                            assertThat(
                                            ((Counter) m.get(CommitterMetrics.FAILED_COMMITS))
                                                    .getCount())
                                    .isNotNegative();
                        })
                .anySatisfy(
                        m -> {
                            assertThat(gauge(m, CommitterMetrics.COMMIT_DURATION)).isNotNegative();
                            assertThat(gauge(m, CommitterMetrics.LAST_SUCCESSFUL_COMMIT_AGE))
                                    .isNotNegative();
                        });
    }

    private static long gauge(Map<String, Metric> metrics, String name) {
        return (Long) ((Gauge<?>) metrics.get(name)).getValue();
    }

    @Test
    void failureInTheWriter(@InjectMiniCluster MiniCluster cluster) throws Exception {
        runToEnd(cluster, new FailAfterCheckpoint(N / 3));
        assertThat(FailOnce.FIRED).as("the failure fired").isTrue();
    }

    @Test
    void failureAfterACommitBeforeTheNextCheckpointCompletes(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        FailOnce.table = SinkTestTables.loader(table).loadTable();
        runToEnd(cluster, new FailAfterFirstCommit());
        assertThat(FailOnce.FIRED).as("the failure fired").isTrue();
    }

    @Test
    void committerCrashRightAfterTheIcebergCommit(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        // the commit succeeded but the committer dies before Flink learns of it: the restored
        // committer gets the same committable from its state and must skip it
        CommitterTestHooks.install(
                null,
                c -> {
                    if (c.checkpointId() >= 3 && !c.isEmpty()) {
                        FailOnce.fire("right after the Iceberg commit of " + c);
                    }
                });
        runToEnd(cluster, null);
        assertThat(FailOnce.FIRED).as("the failure fired").isTrue();
    }

    @Test
    void committerCrashAfterCheckpointCompletionBeforeTheIcebergCommit(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        CommitterTestHooks.install(
                c -> {
                    if (c.checkpointId() >= 3 && !c.isEmpty()) {
                        FailOnce.fire("before the Iceberg commit of " + c);
                    }
                },
                null);
        runToEnd(cluster, null);
        assertThat(FailOnce.FIRED).as("the failure fired").isTrue();
    }

    @Test
    void twoJobsWritingOneTableAtOnceBothLandEveryRow(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        JobID first = submit(cluster, job(table, 0, N, ROWS_PER_CHECKPOINT, "first", null));
        JobID second = submit(cluster, job(table, N, N, ROWS_PER_CHECKPOINT, "second", null));
        awaitSuccess(cluster, first);
        awaitSuccess(cluster, second);
        assertThat(ids(table)).isEqualTo(range(0, 2L * N));
        assertCheckpointIdsIncrease(table);
        Set<String> jobs = new HashSet<>();
        SinkTestTables.history(table, "main")
                .forEach(s -> jobs.add(s.summary().get(CommitSummaryKeys.JOB_ID)));
        assertThat(jobs).containsExactlyInAnyOrder(first.toHexString(), second.toHexString());
    }

    @Test
    void restoringASavepointOlderThanTheLatestCommitCommitsNothingTwice(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String savepoints = dir.resolve("savepoints").toUri().toString();
        // job 1 runs slowly and is stopped with a savepoint after a few commits
        JobID first = submit(cluster, job(table, 0, N, 20, "t", null));
        waitUntil("job 1 committed three times", () -> snapshotCount(table) >= 3);
        String savepoint =
                cluster.stopWithSavepoint(first, savepoints, false, SavepointFormatType.CANONICAL)
                        .get(FailoverTestJobs.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        List<Long> beforeSavepoint = ids(table);
        assertThat(beforeSavepoint).isNotEmpty().hasSizeLessThan(N);

        // job 2 continues from the savepoint to the end: exactly the N rows
        JobID second =
                submit(
                        cluster,
                        restoredFrom(job(table, 0, N, ROWS_PER_CHECKPOINT, "t", null), savepoint));
        awaitSuccess(cluster, second);
        assertThat(ids(table)).isEqualTo(range(0, N));
        int snapshotsAfterSecond = snapshotCount(table);

        // job 3 restores the same, now older, savepoint: the committables in its state were
        // committed by job 1 and are skipped; the rows after the savepoint are read again from
        // the source and so are committed again (under job 3), each exactly once more
        JobID third =
                submit(
                        cluster,
                        restoredFrom(job(table, 0, N, ROWS_PER_CHECKPOINT, "t", null), savepoint));
        awaitSuccess(cluster, third);
        List<Long> expected = new ArrayList<>(range(0, N));
        for (long id = 0; id < N; id++) {
            if (!beforeSavepoint.contains(id)) {
                expected.add(id);
            }
        }
        expected.sort(Long::compare);
        assertThat(ids(table)).isEqualTo(expected);
        assertThat(snapshotCount(table)).isGreaterThan(snapshotsAfterSecond);
        assertCheckpointIdsIncrease(table);
        // job 1's id appears only in snapshots made before the savepoint was taken
        assertThat(
                        SinkTestTables.history(table, "main").stream()
                                .skip(snapshotsAfterSecond)
                                .map(s -> s.summary().get(CommitSummaryKeys.JOB_ID)))
                .containsOnly(third.toHexString());
    }

    @Test
    void aBatchRunDoesNotBlockALaterStreamingJobWithTheSameJobId(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        // fixed job ids happen (application mode with HA): a bounded batch run, then a streaming
        // job under the same job id and the same operator uids
        JobID fixed = JobID.generate();
        JobID batch = submit(cluster, job(table, 0, N, 0, "t", null, true, fixed));
        awaitSuccess(cluster, batch);
        assertThat(ids(table)).isEqualTo(range(0, N));
        Snapshot batchCommit = table.currentSnapshot();
        assertThat(batchCommit.summary())
                .containsEntry(CommitSummaryKeys.JOB_ID, fixed.toHexString())
                .containsEntry(CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID, "1")
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "0");

        // a MiniCluster refuses a job id it has seen: the later job runs on a fresh cluster, as a
        // redeployed application would
        try (MiniCluster fresh =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(4)
                                // builds of several Flink lines run at once on one machine
                                .withRandomPorts()
                                .build())) {
            fresh.start();
            JobID streaming =
                    submit(fresh, job(table, N, N, ROWS_PER_CHECKPOINT, "t", null, false, fixed));
            awaitSuccess(fresh, streaming);
        }
        assertThat(ids(table)).isEqualTo(range(0, 2L * N));
        assertThat(table.currentSnapshot().summary().get(CommitSummaryKeys.JOB_ID))
                .isEqualTo(fixed.toHexString());
    }
}
