package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkSavepointFixtureJob.NAME;
import static dev.icebergflink.sink.SinkSavepointFixtureJob.ROWS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.CommitSummaryKeys;
import dev.icebergflink.testing.SavepointFixtures;
import dev.icebergflink.testing.SavepointFixtures.Fixture;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink's state written by an earlier release restores on this code: the savepoint fixture of
 * {@link SinkSavepointFixtureGeneratorITCase} (under {@code savepoints/<line>/iceberg-sink} of the
 * test resources) is copied back to its fixed directory and restored into the same job ({@link
 * SinkSavepointFixtureJob}, same uids, no unclaimed state allowed), which runs to the end of its
 * input. The table then holds every generated row exactly once; the restored job's commits carry
 * checkpoint ids after the savepoint's, each committed once, from the same operator.
 *
 * <p>Flink 2.x only: Flink restores no savepoint across the 1.x/2.x boundary.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SinkSavepointCompatibilityITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @Test
    void stateOfRelease010OnFlink21RestoresAndCommitsEveryRowExactlyOnce() throws Exception {
        try (Fixture fixture = SavepointFixtures.restore("savepoints/flink-2.1/" + NAME, NAME)) {
            assertThat(fixture.property("flink.version")).startsWith("2.1.");
            assertThat(fixture.property("connector.version")).startsWith("0.1.0");
            assertThat(fixture.longProperty("rows.total")).isEqualTo(ROWS);
            int committed = (int) fixture.longProperty("rows.committed");
            long savepointCheckpoint = fixture.longProperty("sink.max-committed-checkpoint-id");
            TableLoader loader = SinkSavepointFixtureJob.loader(fixture.dir());

            // the fixture as the old release left it
            List<Snapshot> before = SinkTestTables.snapshots(loader);
            assertThat(before).hasSize((int) fixture.longProperty("snapshots"));
            assertThat(committed).isPositive().isLessThan(ROWS);
            assertThat(SinkTestTables.rows(loader))
                    .isEqualTo(SinkSavepointFixtureJob.expected(0, committed));

            StreamExecutionEnvironment env = SavepointFixtures.environment(fixture.savepoint());
            SinkSavepointFixtureJob.pipeline(env, loader, 60);
            env.execute("restored savepoint fixture " + NAME);

            // every row exactly once: nothing committed twice, nothing skipped
            assertThat(SinkTestTables.rows(loader))
                    .isEqualTo(SinkSavepointFixtureJob.expected(0, ROWS));

            List<Snapshot> all = SinkTestTables.snapshots(loader);
            assertThat(all.subList(0, before.size()))
                    .extracting(Snapshot::snapshotId)
                    .isEqualTo(before.stream().map(Snapshot::snapshotId).toList());
            List<Snapshot> restored = all.subList(before.size(), all.size());
            assertThat(restored).isNotEmpty();
            long previous = savepointCheckpoint;
            long added = 0;
            for (Snapshot snapshot : restored) {
                Map<String, String> summary = snapshot.summary();
                // the restored job continues the savepoint's checkpoint ids (it did not start
                // afresh, at checkpoint 1) and commits each of them once
                long checkpoint =
                        Long.parseLong(
                                summary.getOrDefault(
                                        CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID,
                                        summary.get(
                                                CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID)));
                assertThat(checkpoint).as("checkpoint of %s", summary).isGreaterThan(previous);
                previous = checkpoint;
                // the same sink operator (same uids), in another job
                assertThat(summary)
                        .containsEntry(
                                CommitSummaryKeys.OPERATOR_ID, fixture.property("sink.operator-id"))
                        .doesNotContainEntry(
                                CommitSummaryKeys.JOB_ID, fixture.property("sink.job-id"));
                added += Long.parseLong(summary.get(SnapshotSummary.ADDED_RECORDS_PROP));
            }
            // the restored generator went on from its position: only the rest was written
            assertThat(added).isEqualTo(ROWS - committed);
        }
    }
}
