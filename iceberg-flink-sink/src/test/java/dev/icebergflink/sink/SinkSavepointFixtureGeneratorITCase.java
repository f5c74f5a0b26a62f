package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkSavepointFixtureJob.NAME;
import static dev.icebergflink.sink.SinkSavepointFixtureJob.ROWS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.CommitSummaryKeys;
import dev.icebergflink.testing.SavepointFixtures;
import dev.icebergflink.testing.SavepointFixtures.Fixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generates the sink's savepoint fixture, which {@code SinkSavepointCompatibilityITCase} of later
 * releases restores; does nothing (skipped by an assumption) unless {@code
 * -Dsavepoint.fixtures.generate=<dir>} is set.
 *
 * <p>It runs {@link SinkSavepointFixtureJob} (300 generated rows, 30 per checkpoint, into an append
 * {@link IcebergSink}) on a local MiniCluster under the fixed directory {@code
 * /tmp/iceberg-flink-savepoint-fixtures/iceberg-sink}, and once the table has two commits stops the
 * job with a savepoint (no drain; the stop commits what the savepoint covers). It then writes
 * {@code <dir>/iceberg-sink}: the savepoint, the table ({@code tables/db/orders}) and {@code
 * fixture.properties} (rows committed and expected, uids, the last committed checkpoint id, the
 * Flink version and our version that wrote it).
 *
 * <p>To add the fixture of a release: check out the release, copy this class, {@link
 * SinkSavepointFixtureJob} and {@code dev.icebergflink.testing.SavepointFixtures} (core test jar)
 * into it if it lacks them, and run on the release's Flink line, e.g.
 *
 * <pre>{@code
 * ./mvnw -pl .,iceberg-flink-core,iceberg-flink-sink verify -Dspotless.check.skip=true \
 *   -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dit.test=SinkSavepointFixtureGeneratorITCase -Dfailsafe.failIfNoSpecifiedTests=false \
 *   -Dsavepoint.fixtures.generate=$PWD/iceberg-flink-sink/src/test/resources/savepoints/flink-2.1 \
 *   -Dsavepoint.fixtures.connector-version=0.1.0-SNAPSHOT
 * }</pre>
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SinkSavepointFixtureGeneratorITCase {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @Test
    void generate() throws Exception {
        Path target = SavepointFixtures.generateTarget();
        try (Fixture fixture = SavepointFixtures.forGeneration(NAME)) {
            TableLoader loader = SinkSavepointFixtureJob.createTable(fixture.dir());
            StreamExecutionEnvironment env = SavepointFixtures.environment(null);
            SinkSavepointFixtureJob.pipeline(env, loader, 30);
            JobClient client = env.executeAsync("savepoint fixture " + NAME);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (SinkTestTables.snapshots(loader).size() < 2) {
                assertThat(System.nanoTime()).as("two commits in time").isLessThan(deadline);
                Thread.sleep(20);
            }
            String savepoint = SavepointFixtures.stopWithSavepoint(client, fixture, TIMEOUT);

            List<String> rows = SinkTestTables.rows(loader);
            assertThat(rows.size()).isPositive().isLessThan(ROWS);
            assertThat(rows).isEqualTo(SinkSavepointFixtureJob.expected(0, rows.size()));
            List<Snapshot> snapshots = SinkTestTables.snapshots(loader);
            Map<String, String> last = snapshots.get(snapshots.size() - 1).summary();

            Path savepointDir =
                    Path.of(new org.apache.flink.core.fs.Path(savepoint).toUri().getPath());
            fixture.put("fixture.name", NAME)
                    .put(SavepointFixtures.SAVEPOINT_KEY, fixture.dir().relativize(savepointDir))
                    .put("flink.version", EnvironmentInformation.getVersion())
                    .put(
                            "connector.version",
                            System.getProperty(
                                    SavepointFixtures.CONNECTOR_VERSION_PROPERTY, "unknown"))
                    .put("table", SinkSavepointFixtureJob.TABLE)
                    .put("rows.total", ROWS)
                    .put("rows.committed", rows.size())
                    .put("snapshots", snapshots.size())
                    .put("uid.generator", SinkSavepointFixtureJob.GENERATOR_UID)
                    .put("uid.sink-suffix", SinkSavepointFixtureJob.UID_SUFFIX)
                    .put("sink.job-id", last.get(CommitSummaryKeys.JOB_ID))
                    .put("sink.operator-id", last.get(CommitSummaryKeys.OPERATOR_ID))
                    .put(
                            "sink.max-committed-checkpoint-id",
                            last.get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID));
            Path written = fixture.export(target);
            System.out.println("savepoint fixture written to " + written);
        }
    }
}
