package dev.icebergflink.source;

import static dev.icebergflink.source.SourceSavepointFixtureJob.NAME;
import static dev.icebergflink.source.SourceSavepointFixtureJob.ROWS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.testing.SavepointFixtures;
import dev.icebergflink.testing.SavepointFixtures.Fixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generates the source's savepoint fixture, which {@code SourceSavepointCompatibilityITCase} of
 * later releases restores; does nothing (skipped by an assumption) unless {@code
 * -Dsavepoint.fixtures.generate=<dir>} is set.
 *
 * <p>It creates the table of {@link SourceSavepointFixtureJob} (240 rows, three snapshots of four
 * files) under the fixed directory {@code /tmp/iceberg-flink-savepoint-fixtures/iceberg-source} and
 * runs the job (a continuous {@link IcebergSource} into a recording file sink, throttled to about
 * 15 ms per record and subtask) on a local MiniCluster. Once the recorder has finished files with
 * at least 30 rows it stops the job with a savepoint (no drain), mid-way through the table. It then
 * writes {@code <dir>/iceberg-source}: the savepoint, the table ({@code tables/source}), the
 * recorder's output ({@code recorded}) and {@code fixture.properties} (rows in the table and
 * recorded, uids, the Flink version and our version that wrote it).
 *
 * <p>To add the fixture of a release: check out the release, copy this class, {@link
 * SourceSavepointFixtureJob} and {@code dev.icebergflink.testing.SavepointFixtures} (core test jar)
 * into it if it lacks them, and run on the release's Flink line, e.g.
 *
 * <pre>{@code
 * ./mvnw -pl .,iceberg-flink-core,iceberg-flink-source verify -Dspotless.check.skip=true \
 *   -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dit.test=SourceSavepointFixtureGeneratorITCase -Dfailsafe.failIfNoSpecifiedTests=false \
 *   -Dsavepoint.fixtures.generate=$PWD/iceberg-flink-source/src/test/resources/savepoints/flink-2.1 \
 *   -Dsavepoint.fixtures.connector-version=0.1.0-SNAPSHOT
 * }</pre>
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SourceSavepointFixtureGeneratorITCase {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @Test
    void generate() throws Exception {
        Path target = SavepointFixtures.generateTarget();
        try (Fixture fixture = SavepointFixtures.forGeneration(NAME)) {
            Table table = SourceSavepointFixtureJob.createTable(fixture.dir());
            StreamExecutionEnvironment env = SavepointFixtures.environment(null);
            SourceSavepointFixtureJob.pipeline(env, fixture.dir(), Duration.ofMillis(15));
            JobClient client = env.executeAsync("savepoint fixture " + NAME);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (SourceSavepointFixtureJob.recordedIds(fixture.dir()).size() < 30) {
                assertThat(System.nanoTime()).as("30 rows recorded in time").isLessThan(deadline);
                Thread.sleep(20);
            }
            String savepoint = SavepointFixtures.stopWithSavepoint(client, fixture, TIMEOUT);

            List<Long> recorded = SourceSavepointFixtureJob.recordedIds(fixture.dir());
            assertThat(recorded.size()).as("stopped mid-way").isLessThan(ROWS);
            assertThat(new HashSet<>(recorded)).hasSameSizeAs(recorded);
            assertThat(recorded).allMatch(id -> id >= 0 && id < ROWS);

            table.refresh();
            Path savepointDir =
                    Path.of(new org.apache.flink.core.fs.Path(savepoint).toUri().getPath());
            fixture.put("fixture.name", NAME)
                    .put(SavepointFixtures.SAVEPOINT_KEY, fixture.dir().relativize(savepointDir))
                    .put("flink.version", EnvironmentInformation.getVersion())
                    .put(
                            "connector.version",
                            System.getProperty(
                                    SavepointFixtures.CONNECTOR_VERSION_PROPERTY, "unknown"))
                    .put("table", "tables/source")
                    .put("rows.total", ROWS)
                    .put("rows.recorded", recorded.size())
                    .put("snapshot-id", table.currentSnapshot().snapshotId())
                    .put("uid.source", SourceSavepointFixtureJob.SOURCE_UID)
                    .put("uid.map", SourceSavepointFixtureJob.MAP_UID)
                    .put("uid.recorder", SourceSavepointFixtureJob.RECORDER_UID);
            Path written = fixture.export(target);
            System.out.println("savepoint fixture written to " + written);
        }
    }
}
