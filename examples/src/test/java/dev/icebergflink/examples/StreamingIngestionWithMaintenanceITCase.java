package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link StreamingIngestionWithMaintenance} in both modes with checkpoints every 200 ms and
 * maintenance that fires after three commits, at most once a second, while the test watches the
 * table's snapshots; then stops the job with a savepoint, as one stops a streaming job for good,
 * and reads the table back.
 */
class StreamingIngestionWithMaintenanceITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String TABLE = StreamingIngestionWithMaintenance.DEFAULT_TABLE;

    @TempDir Path warehouse;
    @TempDir Path savepoints;

    /** Maintenance that fires quickly: after three commits, at most one run a second. */
    private List<String> fastMaintenance(String mode) {
        return List.of(
                "--warehouse",
                warehouse.toUri().toString(),
                "--maintenance",
                mode,
                "--checkpoint-interval",
                "200ms",
                "--compact-after-commits",
                "3",
                "--expire-after-commits",
                "3",
                "--retain-last",
                "3",
                "--max-snapshot-age",
                "0s",
                "--rate-limit",
                "1s");
    }

    @Test
    void maintenanceAfterTheSinksCommitsCompactsAndExpiresWhileTheJobWrites(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();
        // Unbounded, on one subtask: the generator's ids then come in order, so what the job
        // committed when it stopped is the events 0 to n - 1.
        CompletableFuture<Void> job =
                start(
                        ExampleTesting.args(
                                fastMaintenance("sink"),
                                "--events-per-second",
                                "100",
                                "--parallelism",
                                "1"),
                        output);

        Table table = awaitTable(output, job);
        History history = new History();
        ExampleTesting.await(
                "a compaction, an expiration and fewer data files than commits",
                DEADLINE,
                () ->
                        job.isDone()
                                || history.look(table)
                                        && !history.compactions.isEmpty()
                                        && history.expired > 0
                                        && history.dataFiles < history.appends.size(),
                history::toString);
        stopWithSavepoint(client, job);
        table.refresh();

        Map<Long, Record> byId = ExampleTesting.recordsById(table);
        assertThat((long) byId.size()).isGreaterThanOrEqualTo(history.rows).isPositive();
        assertThat(Collections.max(byId.keySet())).isEqualTo(byId.size() - 1L);
        assertGeneratedEvents(byId);
        assertThat(output.text())
                .contains("Maintenance after the sink's commits: compaction after 3 commits")
                .contains("lock: the job's own")
                .contains("Done: " + TABLE + " holds " + byId.size() + " rows");
    }

    @Test
    void aMaintenanceTopologyUnderASharedLockCompactsTheWrittenEventsIntoOneFilePerPartition(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        long events = 400;
        Path locks = warehouse.resolve("locks.db");
        ExampleTesting.Output output = new ExampleTesting.Output();
        CompletableFuture<Void> job =
                start(
                        ExampleTesting.args(
                                fastMaintenance("topology"),
                                "--events",
                                String.valueOf(events),
                                "--events-per-second",
                                "200",
                                "--parallelism",
                                "2",
                                // The files of the last commits, fewer than three, are compacted
                                // after a second.
                                "--compact-interval",
                                "1s",
                                "--lock-jdbc-uri",
                                "jdbc:sqlite:" + locks),
                        output);

        // The topology keeps the job running after the events are written, and compacts them.
        Table table = awaitTable(output, job);
        History history = new History();
        ExampleTesting.await(
                "every event committed, then compacted into one file per category",
                DEADLINE,
                () ->
                        job.isDone()
                                || history.look(table)
                                        && history.rows == events
                                        && history.dataFiles == GeneratedEvents.CATEGORIES.length
                                        && !history.compactions.isEmpty(),
                history::toString);
        stopWithSavepoint(client, job);
        table.refresh();

        Map<Long, Record> byId = ExampleTesting.recordsById(table);
        assertThat(byId).hasSize((int) events);
        assertThat(Collections.max(byId.keySet())).isEqualTo(events - 1);
        assertGeneratedEvents(byId);
        // One file per category partition: the commits wrote at least one per partition and
        // writer subtask, and a compaction after the last of them merged them.
        Map<String, Long> rowsPerFile = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                assertThat(
                                rowsPerFile.put(
                                        file.partition().get(0, String.class), file.recordCount()))
                        .isNull();
            }
        }
        assertThat(rowsPerFile)
                .containsOnlyKeys(GeneratedEvents.CATEGORIES)
                .allSatisfy((category, rows) -> assertThat(rows).isEqualTo(events / 4));
        Snapshot current = table.currentSnapshot();
        assertThat(current.operation()).isEqualTo(DataOperations.REPLACE);
        assertThat(Long.parseLong(current.summary().get("deleted-data-files")))
                .isGreaterThan(Long.parseLong(current.summary().get("added-data-files")));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + locks);
                Statement statement = connection.createStatement();
                ResultSet locksTable =
                        statement.executeQuery("SELECT COUNT(*) FROM flink_maintenance_lock")) {
            // The maintenance took its locks in that database: the lock factory made its table.
            assertThat(locksTable.next()).isTrue();
        }
        assertThat(output.text())
                .contains("Maintenance topology watching the table: compaction after 3 commits")
                .contains("lock: JDBC lock '" + TABLE + "' shared by jobs")
                .contains("Done: " + TABLE + " holds 400 rows in 4 data files");
    }

    /** Runs the example on another thread; the returned future ends with the example. */
    private static CompletableFuture<Void> start(String[] args, ExampleTesting.Output output) {
        CompletableFuture<Void> job =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                StreamingIngestionWithMaintenance.run(args, output.stream);
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        });
        job.whenComplete((ignored, failure) -> output.wakeUp());
        return job;
    }

    /** The example's table, once the example has created it (and said so). */
    private Table awaitTable(ExampleTesting.Output output, CompletableFuture<Void> job)
            throws InterruptedException {
        String created = "Created table " + TABLE + " in catalog examples";
        output.await(
                text -> text.contains(created) || job.isDone(),
                System.nanoTime() + DEADLINE.toNanos());
        if (job.isCompletedExceptionally()) {
            job.join();
        }
        assertThat(output.text()).contains(created);
        return ExampleTesting.loadTable(warehouse, TABLE);
    }

    /**
     * Stops the example's job with a savepoint, so that it commits what it wrote before the
     * savepoint and finishes, and waits for the example to print its summary. A job that ended
     * early fails the test with its error.
     */
    private void stopWithSavepoint(ClusterClient<?> client, CompletableFuture<Void> job)
            throws Exception {
        if (job.isDone()) {
            job.join();
            throw new AssertionError("The example's job ended before it was stopped");
        }
        JobID running = runningJob(client);
        client.stopWithSavepoint(
                        running,
                        false,
                        savepoints.toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        job.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }

    /** The one job of the MiniCluster that has not ended (earlier tests' jobs have). */
    private static JobID runningJob(ClusterClient<?> client) throws Exception {
        List<JobID> running =
                client.listJobs().get(DEADLINE.toSeconds(), TimeUnit.SECONDS).stream()
                        .filter(job -> !job.getJobState().isGloballyTerminalState())
                        .map(JobStatusMessage::getJobId)
                        .toList();
        assertThat(running).as("running jobs").hasSize(1);
        return running.get(0);
    }

    /** Every record is the generated event of its id. */
    private static void assertGeneratedEvents(Map<Long, Record> byId) {
        LocalDateTime start = LocalDateTime.of(2026, 1, 1, 0, 0);
        byId.forEach(
                (id, record) -> {
                    assertThat(record.getField("category"))
                            .isEqualTo(GeneratedEvents.CATEGORIES[(int) (id % 4)]);
                    assertThat(record.getField("amount")).isEqualTo(GeneratedEvents.amountOf(id));
                    assertThat(record.getField("ts")).isEqualTo(start.plusSeconds(id * 37));
                });
    }

    /**
     * What the test saw of the table while the job ran: the appends and compactions among the
     * snapshots it saw, how many of those are gone (expired), and the current snapshot's numbers.
     * Looks are frequent enough to see nearly every commit; a missed one only makes the appends
     * seen fewer than the commits made.
     */
    private static final class History {
        final Set<Long> seen = new HashSet<>();
        final Set<Long> appends = new HashSet<>();
        final Set<Long> compactions = new HashSet<>();
        int expired;
        long rows;
        long dataFiles;

        /** Looks at the table's current metadata; always true, to chain in a condition. */
        boolean look(Table table) {
            table.refresh();
            Set<Long> kept = new HashSet<>();
            for (Snapshot snapshot : table.snapshots()) {
                kept.add(snapshot.snapshotId());
                seen.add(snapshot.snapshotId());
                if (DataOperations.APPEND.equals(snapshot.operation())) {
                    appends.add(snapshot.snapshotId());
                } else if (DataOperations.REPLACE.equals(snapshot.operation())) {
                    compactions.add(snapshot.snapshotId());
                }
            }
            expired = (int) seen.stream().filter(id -> !kept.contains(id)).count();
            rows = ExampleTables.rowCount(table);
            dataFiles = ExampleTables.dataFileCount(table);
            return true;
        }

        @Override
        public String toString() {
            return String.format(
                    "saw %d appends, %d compactions, %d snapshots expired; now %d rows in %d data"
                            + " files",
                    appends.size(), compactions.size(), expired, rows, dataFiles);
        }
    }
}
