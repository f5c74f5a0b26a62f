package dev.icebergflink.sink.committer;

import static dev.icebergflink.sink.committer.FailoverTestJobs.assertCheckpointIdsIncrease;
import static dev.icebergflink.sink.committer.FailoverTestJobs.awaitSuccess;
import static dev.icebergflink.sink.committer.FailoverTestJobs.ids;
import static dev.icebergflink.sink.committer.FailoverTestJobs.job;
import static dev.icebergflink.sink.committer.FailoverTestJobs.range;
import static dev.icebergflink.sink.committer.FailoverTestJobs.snapshotCount;
import static dev.icebergflink.sink.committer.FailoverTestJobs.submit;
import static dev.icebergflink.sink.committer.FailoverTestJobs.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.highavailability.nonha.embedded.HaLeadershipControl;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across a JobManager failover: the job's JobMaster loses leadership after some
 * commits (what a JobManager crash looks like to a job in an HA setup), a new JobMaster takes over
 * from the last completed checkpoint in the HA checkpoint store, and the table still ends up with
 * every row once. The committable state restored from that checkpoint carries everything the
 * committer needs; commits that already reached Iceberg are recognised in the snapshot summaries.
 */
class JobManagerFailoverITCase {

    private static final int N = 1200;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .withHaLeadershipControl()
                            .build());

    @TempDir Path dir;

    @Test
    void aNewJobMasterLosesAndDuplicatesNothing(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        HaLeadershipControl leadership =
                cluster.getHaLeadershipControl()
                        .orElseThrow(() -> new AssertionError("HA leadership control is off"));
        Table table = FailoverTestJobs.createTable(dir);
        JobID job = submit(cluster, job(table, 0, N, 40, "jm", null));
        waitUntil("two commits", () -> snapshotCount(table) >= 2);
        assertThat(ids(table).size()).isLessThan(N);

        long timeout = FailoverTestJobs.TIMEOUT.toMillis();
        leadership.revokeJobMasterLeadership(job).get(timeout, TimeUnit.MILLISECONDS);
        leadership.grantJobMasterLeadership(job).get(timeout, TimeUnit.MILLISECONDS);

        awaitSuccess(cluster, job);
        assertThat(
                        cluster.getArchivedExecutionGraph(job)
                                .get(timeout, TimeUnit.MILLISECONDS)
                                .getCheckpointStatsSnapshot()
                                .getLatestRestoredCheckpoint())
                .as("the new JobMaster restored the job from a checkpoint")
                .isNotNull();
        assertThat(ids(table)).isEqualTo(range(0, N));
        assertCheckpointIdsIncrease(table);
    }
}
