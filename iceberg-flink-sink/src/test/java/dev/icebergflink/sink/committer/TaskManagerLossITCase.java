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
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once when the TaskManager running the whole job (writers, aggregation, committer) is lost
 * after some commits and a new one takes over. Its own class, because it changes the MiniCluster.
 */
class TaskManagerLossITCase {

    private static final int N = 1200;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;

    @Test
    void aLostTaskManagerLosesAndDuplicatesNothing(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Table table = FailoverTestJobs.createTable(dir);
        JobID job = submit(cluster, job(table, 0, N, 40, "t", null));
        waitUntil("two commits", () -> snapshotCount(table) >= 2);
        int before = ids(table).size();
        assertThat(before).isLessThan(N);

        cluster.terminateTaskManager(0)
                .get(FailoverTestJobs.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        cluster.startTaskManager();

        awaitSuccess(cluster, job);
        assertThat(ids(table)).isEqualTo(range(0, N));
        assertCheckpointIdsIncrease(table);
    }
}
