package dev.icebergflink.source;

import static dev.icebergflink.source.SourceSavepointFixtureJob.NAME;
import static dev.icebergflink.source.SourceSavepointFixtureJob.ROWS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.testing.SavepointFixtures;
import dev.icebergflink.testing.SavepointFixtures.Fixture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source's state written by an earlier release restores on this code: the savepoint fixture of
 * {@link SourceSavepointFixtureGeneratorITCase} (under {@code savepoints/<line>/iceberg-source} of
 * the test resources), stopped mid-way through the table, is copied back to its fixed directory and
 * restored into the same job ({@link SourceSavepointFixtureJob}, same uids, no unclaimed state
 * allowed). The restored job reads the rest of the table and a snapshot appended after the restore;
 * across the old run and the restored one every row is recorded exactly once.
 *
 * <p>Flink 2.x only: Flink restores no savepoint across the 1.x/2.x boundary.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SourceSavepointCompatibilityITCase {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    /** Rows appended after the restore: the restored enumerator must go on monitoring. */
    private static final int APPENDED = 40;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @Test
    void stateOfRelease010OnFlink21RestoresAndReadsEveryRowExactlyOnce() throws Exception {
        try (Fixture fixture = SavepointFixtures.restore("savepoints/flink-2.1/" + NAME, NAME)) {
            assertThat(fixture.property("flink.version")).startsWith("2.1.");
            assertThat(fixture.property("connector.version")).startsWith("0.1.0");
            assertThat(fixture.longProperty("rows.total")).isEqualTo(ROWS);

            // the fixture as the old release left it: stopped mid-way
            List<Long> before = SourceSavepointFixtureJob.recordedIds(fixture.dir());
            assertThat(before)
                    .hasSize((int) fixture.longProperty("rows.recorded"))
                    .doesNotHaveDuplicates()
                    .allMatch(id -> id >= 0 && id < ROWS);
            assertThat(before.size()).isPositive().isLessThan(ROWS);
            Table table = SourceSavepointFixtureJob.loader(fixture.dir()).clone().loadTable();
            assertThat(table.currentSnapshot().snapshotId())
                    .isEqualTo(fixture.longProperty("snapshot-id"));

            StreamExecutionEnvironment env = SavepointFixtures.environment(fixture.savepoint());
            SourceSavepointFixtureJob.pipeline(env, fixture.dir(), Duration.ZERO);
            JobClient client = env.executeAsync("restored savepoint fixture " + NAME);
            boolean stopped = false;
            try {
                await(fixture, ROWS);
                // a snapshot committed after the restore: the restored enumerator goes on from
                // the position it had, so only the new rows are read
                SourceTestTables.appendFiles(table, ROWS, ROWS + APPENDED, 20);
                await(fixture, ROWS + APPENDED);
                // stopping commits whatever the recorder still holds: duplicates would show
                client.stopWithSavepoint(
                                false,
                                fixture.resolve("savepoint-after").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                stopped = true;
                client.getJobExecutionResult().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                if (!stopped) {
                    client.cancel();
                }
            }

            // the restored run recorded exactly the rows the old run had not: a job started
            // afresh would have read the whole table again

            assertThat(SourceSavepointFixtureJob.recordedIds(fixture.dir()))
                    .isEqualTo(SourceTestTables.range(0, ROWS + APPENDED));
        }
    }

    /** Waits until the recorder's finished files hold at least {@code rows} ids. */
    private static void await(Fixture fixture, int rows) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (SourceSavepointFixtureJob.recordedIds(fixture.dir()).size() < rows) {
            assertThat(System.nanoTime())
                    .as("%s rows recorded before the deadline", rows)
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
