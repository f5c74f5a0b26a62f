package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * {@code table-refresh-interval}: a running sink picks up a partition spec and a column that
 * another session adds to its table, and goes on writing every row exactly once.
 */
class TableRefreshITCase extends SinkITCaseBase {

    private static final int N = 300;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @Test
    void aRunningSinkWritesWithTheSpecAndSchemaAnotherSessionGaveItsTable() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env();
        generated(env, N, 30, 3)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .set(FlinkWriteOptions.TABLE_REFRESH_INTERVAL.key(), "100 ms")
                                .build());
        JobClient client = env.executeAsync("sink following its table");
        awaitSnapshots(loader, 2);

        // another session adds a column, then partitions by 'part', while the job writes: a
        // file of the new spec is written after both changes
        Table table = SinkTestTables.load(loader);
        commitBesideTheJob(
                table, t -> t.updateSchema().addColumn("extra", Types.StringType.get()).commit());
        commitBesideTheJob(table, t -> t.updateSpec().addField("part").commit());
        int newSpecId = table.spec().specId();
        int extraId = table.schema().findField("extra").fieldId();

        client.getJobExecutionResult().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(rows(loader)).isEqualTo(expected(N, 3));
        List<DataFile> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks =
                SinkTestTables.load(loader).newScan().includeColumnStats().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        }
        List<DataFile> before = files.stream().filter(f -> f.specId() != newSpecId).toList();
        List<DataFile> after = files.stream().filter(f -> f.specId() == newSpecId).toList();
        assertThat(before).as("files written before the change").isNotEmpty();
        assertThat(after).as("files written with the new spec").isNotEmpty();
        for (DataFile file : after) {
            assertThat(file.partition().get(0, String.class)).startsWith("p");
            // written with the new schema: the new column is in the file, all NULL
            assertThat(file.nullValueCounts()).containsEntry(extraId, file.recordCount());
        }
    }

    /**
     * Commits another session's change while the job commits too: Iceberg's schema and spec updates
     * do not retry by themselves, so when the job's commit came first the change is made again on
     * the refreshed table, as a user's session would.
     */
    private static void commitBesideTheJob(Table table, Consumer<Table> change) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                change.accept(table);
                return;
            } catch (CommitFailedException e) {
                assertThat(System.nanoTime())
                        .as("the change committed before the deadline; last conflict: " + e)
                        .isLessThan(deadline);
                table.refresh();
            }
        }
    }

    private static void awaitSnapshots(TableLoader loader, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (SinkTestTables.snapshots(loader).size() < count) {
            assertThat(System.nanoTime())
                    .as(count + " commits before the deadline")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
