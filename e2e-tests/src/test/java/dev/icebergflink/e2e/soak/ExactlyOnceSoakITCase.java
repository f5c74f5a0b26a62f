package dev.icebergflink.e2e.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.icebergflink.e2e.cluster.ChildJvm;
import dev.icebergflink.e2e.cluster.E2eArtifacts;
import dev.icebergflink.e2e.cluster.FlinkCli;
import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import dev.icebergflink.e2e.cluster.FlinkSessionCluster;
import dev.icebergflink.e2e.cluster.ZooKeeperProcess;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import dev.icebergflink.testing.servers.RestCommitFaults.Fault;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Exactly-once soak on a real multi-process Flink cluster: a streaming append job and a streaming
 * upsert job write through {@code IcebergSink} with a checkpoint every second while the test
 * injects faults, then both tables must hold exactly the expected rows: nothing lost, nothing
 * twice.
 *
 * <p>The parts are real: a JobManager and a TaskManager as separate JVMs with ZooKeeper high
 * availability (ZooKeeper as its own process), the shaded bundle in the cluster's {@code lib/}, the
 * job jar submitted with {@code flink run}, and the Iceberg REST catalog server over HTTP. The
 * faults rotate through five kinds, each injected after the tables received a new commit (plus a
 * varying offset into the next checkpoint interval, so they land at different points):
 *
 * <ol>
 *   <li>the TaskManager process killed with SIGKILL, then a new TaskManager started;
 *   <li>the JobManager process killed with SIGKILL, then a new JobManager started, which recovers
 *       both jobs from ZooKeeper and their latest checkpoints;
 *   <li>a commit rejected by the catalog (500, not applied);
 *   <li>a commit applied by the catalog whose answer is lost (504);
 *   <li>both jobs stopped with a savepoint, resumed from it, stopped with a second savepoint, and
 *       then restored from the first, OLDER savepoint with {@code flink run -s} (new job ids): the
 *       jobs replay their input from there. Restoring older state rewinds the input, so the append
 *       table is first rolled back to the snapshot that was current when the older savepoint was
 *       taken (what an operator does to rewind a pipeline); the upsert table is not rolled back,
 *       since replaying updates by key must converge to the same content anyway.
 * </ol>
 *
 * <p>The inputs are deterministic, checkpointed sequences ({@code SoakJob}), throttled so they
 * outlast the faults; after the last fault both jobs are stopped with a savepoint and resumed
 * faster (when much input is left), and they end by themselves at end of input. The tables are then
 * read with Iceberg's generic reader: the append table must hold every id {@code 0..rows-1} exactly
 * once, the upsert table every key exactly once with the value of its last update.
 *
 * <p>Short form (CI, 5 faults, one of each kind) by default; the long form runs with {@code
 * -Dsoak.faults=20} (see docs/testing.md). A summary (faults of each kind, rows, snapshots,
 * duration) is printed and written to {@code target/e2e/ExactlyOnceSoakITCase-summary.txt}.
 */
class ExactlyOnceSoakITCase {

    private static final int FAULTS = Integer.getInteger("soak.faults", 5);
    private static final int ROWS_PER_SECOND = Integer.getInteger("soak.rows-per-second", 200);
    private static final int SECONDS_PER_FAULT = Integer.getInteger("soak.seconds-per-fault", 60);
    private static final long ROWS = (long) FAULTS * SECONDS_PER_FAULT * ROWS_PER_SECOND;
    private static final long KEYS = 1_000;
    private static final int DRAIN_SPEEDUP = 10;
    private static final int DRAIN_THRESHOLD_SECONDS = 60;
    private static final int WRITE_PARALLELISM = 2;
    private static final Duration STEP_DEADLINE = Duration.ofMinutes(5);

    /** The job's main class; named, not referenced, since Flink is not on the test class path. */
    private static final String SOAK_JOB = "dev.icebergflink.e2e.soak.job.SoakJob";

    /** Partitions of the append table ({@code part = id % PARTS}, as the job writes them). */
    private static final int PARTS = 4;

    private static final Pattern JOB_ID = Pattern.compile("JobID ([0-9a-f]{32})");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final TableIdentifier APPEND = TableIdentifier.of("soak", "append_rows");
    private static final TableIdentifier UPSERT = TableIdentifier.of("soak", "upsert_rows");

    @RegisterExtension
    @Order(1)
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @RegisterExtension
    @Order(2)
    static final ZooKeeperProcess ZOOKEEPER = new ZooKeeperProcess();

    @RegisterExtension
    @Order(3)
    static final FlinkSessionCluster CLUSTER =
            FlinkSessionCluster.withBundle(BundlePlacement.LIB)
                    // Two jobs, each with a source and two writers.
                    .config("taskmanager.numberOfTaskSlots", "4")
                    // A killed TaskManager is noticed after two failed heartbeat RPCs.
                    .config("heartbeat.interval", "2000")
                    .config("heartbeat.timeout", "60000")
                    .config("restart-strategy.type", "fixed-delay")
                    .config("restart-strategy.fixed-delay.attempts", "1000000")
                    .config("restart-strategy.fixed-delay.delay", "1 s")
                    .config("high-availability.type", "zookeeper")
                    .config("high-availability.cluster-id", "/soak")
                    // The killed JobManager's leadership ends with its ZooKeeper session.
                    .config("high-availability.zookeeper.client.session-timeout", "15000")
                    .config("high-availability.zookeeper.client.connection-timeout", "15000")
                    .config(
                            () ->
                                    Map.of(
                                            "high-availability.zookeeper.quorum",
                                            ZOOKEEPER.quorum(),
                                            "high-availability.storageDir",
                                            ZOOKEEPER
                                                    .directory()
                                                    .resolve("flink-ha")
                                                    .toUri()
                                                    .toString()));

    /**
     * The kinds of fault. The soak rotates through {@code -Dsoak.kinds} (comma-separated names), by
     * default the first five in this order.
     */
    enum FaultKind {
        KILL_TASK_MANAGER,
        KILL_JOB_MANAGER,
        COMMIT_REJECTED,
        COMMIT_ANSWER_LOST,
        RESTORE_OLDER_SAVEPOINT,
        /**
         * Opt-in: the catalog applies a commit and answers 429, so Iceberg's REST client sends the
         * same commit again and gets a conflict, which Iceberg's commit retry handles.
         */
        COMMIT_RETRIED_AFTER_APPLY
    }

    private static final List<FaultKind> KINDS =
            Stream.of(
                            System.getProperty(
                                            "soak.kinds",
                                            "KILL_TASK_MANAGER,KILL_JOB_MANAGER,COMMIT_REJECTED,"
                                                    + "COMMIT_ANSWER_LOST,RESTORE_OLDER_SAVEPOINT")
                                    .split(","))
                    .map(String::trim)
                    .filter(name -> !name.isEmpty())
                    .map(FaultKind::valueOf)
                    .toList();

    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private final List<String> log = new ArrayList<>();
    private String appendJob;
    private String upsertJob;
    private int savepoints;

    @Test
    void bothTablesHoldExactlyTheInputAfterEveryFault() throws Exception {
        Instant start = Instant.now();
        createTables();
        note(
                "soak: %d faults, %d rows per job at %d rows/s, %d keys, write parallelism %d",
                FAULTS, ROWS, ROWS_PER_SECOND, KEYS, WRITE_PARALLELISM);
        List<String> jobs = submitBoth(null, null, ROWS_PER_SECOND);
        appendJob = jobs.get(0);
        upsertJob = jobs.get(1);
        awaitNewCommits(null, null, "the first commits");

        for (int i = 0; i < FAULTS; i++) {
            FaultKind kind = KINDS.get(i % KINDS.size());
            assertStillRunning(i);
            // Place the fault: after a new commit of both tables, plus an offset into the next
            // checkpoint interval that differs from fault to fault (placement, not correctness).
            awaitNewCommits(currentSnapshot(APPEND), currentSnapshot(UPSERT), "fault " + i);
            Thread.sleep((i * 379L) % 1000);
            Instant faultStart = Instant.now();
            Long appendBefore = currentSnapshot(APPEND);
            Long upsertBefore = currentSnapshot(UPSERT);
            String detail = inject(kind, i);
            awaitNewCommits(appendBefore, upsertBefore, "recovery from fault " + i);
            injected.merge(kind, 1, Integer::sum);
            note(
                    "fault %d/%d %s: %s; both tables committed again after %d s",
                    i + 1,
                    FAULTS,
                    kind,
                    detail,
                    Duration.between(faultStart, Instant.now()).toSeconds());
        }

        // Drain: when much input is left, resume the rest faster, so the jobs end soon by
        // themselves. Still throttled, so that the final drain also commits at checkpoints
        // (aJobRestoredShortlyBeforeItsEndOfInputFinishes covers an input that ends first).
        assertStillRunning(FAULTS);
        long left = ROWS - committedRows(APPEND);
        if (left > DRAIN_THRESHOLD_SECONDS * ROWS_PER_SECOND) {
            String appendSavepoint = stopWithSavepoint(appendJob);
            String upsertSavepoint = stopWithSavepoint(upsertJob);
            jobs = submitBoth(appendSavepoint, upsertSavepoint, DRAIN_SPEEDUP * ROWS_PER_SECOND);
            appendJob = jobs.get(0);
            upsertJob = jobs.get(1);
            note(
                    "about %d rows left: resumed both jobs from savepoints at %d rows/s",
                    left, DRAIN_SPEEDUP * ROWS_PER_SECOND);
        }
        awaitFinished(appendJob);
        awaitFinished(upsertJob);
        note("both jobs finished at end of input");

        Map<Long, List<Record>> appendRows = readByLong(APPEND, "id");
        Map<Long, List<Record>> upsertRows = readByLong(UPSERT, "key");
        String summary = summary(start, appendRows, upsertRows);
        System.out.println(summary);
        Path summaryFile = Path.of("target", "e2e", "ExactlyOnceSoakITCase-summary.txt");
        Files.createDirectories(summaryFile.getParent());
        Files.writeString(summaryFile, summary, StandardCharsets.UTF_8);

        assertThat(injected.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(FAULTS);
        assertExactAppend(appendRows);
        assertExactUpsert(upsertRows, ROWS);
    }

    /**
     * A job restored from a savepoint whose remaining input ends before the restored run's first
     * checkpoint must still finish, with the exact content.
     *
     * <p>Found by the soak: at the end of input the writers' results reach the sink's aggregation
     * labelled checkpoint 1 (Flink labels end-of-input results with the last checkpoint id the
     * writer operator knows, which comes from the restore only when its task has state to restore);
     * the aggregation used to reject them and the job restarted from the same savepoint forever.
     */
    @Test
    void aJobRestoredShortlyBeforeItsEndOfInputFinishes() throws Exception {
        TableIdentifier table = TableIdentifier.of("soak", "end_of_input_rows");
        long rows = 4_000;
        createNamespaceIfMissing();
        createUpsertTable(table);
        String job = submit("upsert", table, null, ROWS_PER_SECOND, rows);
        Instant deadline = Instant.now().plus(STEP_DEADLINE);
        while (currentSnapshot(table) == null && Instant.now().isBefore(deadline)) {
            Thread.sleep(200); // polling interval; the condition is the first commit
        }
        assertThat(currentSnapshot(table)).as("a first commit").isNotNull();
        String savepoint = stopWithSavepoint(job);

        // Unthrottled: the rest of the input ends within the first checkpoint interval.
        String resumed = submit("upsert", table, savepoint, 0, rows);
        awaitState(resumed, Set.of("FINISHED"), Instant.now().plus(Duration.ofMinutes(3)));
        assertExactUpsert(readByLong(table, "key"), rows);
    }

    // ---------------------------------------------------------------- faults

    private String inject(FaultKind kind, int index) throws Exception {
        switch (kind) {
            case KILL_TASK_MANAGER:
                {
                    long pid = CLUSTER.killTaskManager();
                    CLUSTER.startTaskManager();
                    return "killed TaskManager pid " + pid + " (SIGKILL), started a new one";
                }
            case KILL_JOB_MANAGER:
                {
                    long pid = CLUSTER.killJobManager();
                    CLUSTER.restartJobManager();
                    return "killed JobManager pid "
                            + pid
                            + " (SIGKILL), started a new one; it recovered "
                            + appendJob
                            + " and "
                            + upsertJob
                            + " from ZooKeeper";
                }
            case COMMIT_REJECTED:
                // Each round of faults hits the other table (round 0: append, round 1: upsert...).
                return commitFault(evenRound(index) ? APPEND : UPSERT, Fault.REFUSE_WITH_500);
            case COMMIT_ANSWER_LOST:
                return commitFault(evenRound(index) ? UPSERT : APPEND, Fault.APPLY_THEN_504);
            case COMMIT_RETRIED_AFTER_APPLY:
                return commitFault(evenRound(index) ? APPEND : UPSERT, Fault.APPLY_THEN_429);
            case RESTORE_OLDER_SAVEPOINT:
                return restoreOlderSavepoint();
            default:
                throw new IllegalArgumentException(kind.toString());
        }
    }

    private static boolean evenRound(int faultIndex) {
        return (faultIndex / KINDS.size()) % 2 == 0;
    }

    private String commitFault(TableIdentifier table, Fault fault) throws Exception {
        CompletableFuture<String> done = REST.commitFaults().arm(table, fault);
        try {
            return done.get(STEP_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            REST.commitFaults().disarm(table);
            throw new AssertionError(
                    "No commit to " + table + " within " + STEP_DEADLINE + " to inject " + fault,
                    e);
        }
    }

    private String restoreOlderSavepoint() throws Exception {
        String olderAppend = stopWithSavepoint(appendJob);
        String olderUpsert = stopWithSavepoint(upsertJob);
        // What the append table held when the older savepoint was taken: stop-with-savepoint
        // commits the savepoint's data before the job finishes.
        long appendAtOlder = currentSnapshot(APPEND);
        List<String> jobs = submitBoth(olderAppend, olderUpsert, ROWS_PER_SECOND);
        appendJob = jobs.get(0);
        upsertJob = jobs.get(1);
        awaitNewCommits(
                appendAtOlder, currentSnapshot(UPSERT), "the run after the older savepoint");
        awaitNewCommits(currentSnapshot(APPEND), currentSnapshot(UPSERT), "a second commit");
        stopWithSavepoint(appendJob);
        stopWithSavepoint(upsertJob);
        long appendNewest = currentSnapshot(APPEND);
        REST.backend().loadTable(APPEND).manageSnapshots().rollbackTo(appendAtOlder).commit();
        jobs = submitBoth(olderAppend, olderUpsert, ROWS_PER_SECOND);
        appendJob = jobs.get(0);
        upsertJob = jobs.get(1);
        return String.format(
                "stopped both jobs with savepoints, resumed, stopped again with newer savepoints,"
                        + " rolled the append table back from snapshot %d to %d, restored both"
                        + " jobs from the older savepoints (%s, %s) as new jobs %s and %s",
                appendNewest, appendAtOlder, olderAppend, olderUpsert, appendJob, upsertJob);
    }

    // ---------------------------------------------------------------- jobs

    /** Submits the append and the upsert job in parallel, from savepoints when given. */
    private List<String> submitBoth(String appendSavepoint, String upsertSavepoint, int rate)
            throws Exception {
        CompletableFuture<String> append =
                CompletableFuture.supplyAsync(
                        () -> submit("append", APPEND, appendSavepoint, rate, ROWS));
        CompletableFuture<String> upsert =
                CompletableFuture.supplyAsync(
                        () -> submit("upsert", UPSERT, upsertSavepoint, rate, ROWS));
        return List.of(append.get(), upsert.get());
    }

    private String submit(
            String mode, TableIdentifier table, String savepoint, int rate, long rows) {
        List<String> cli = new ArrayList<>(List.of("run", "-d"));
        if (savepoint != null) {
            cli.addAll(List.of("-s", savepoint));
        }
        cli.addAll(List.of("-c", SOAK_JOB, soakJobJar().toString()));
        cli.addAll(
                List.of(
                        "--catalog-uri", REST.uri(),
                        "--table", table.toString(),
                        "--mode", mode,
                        "--rows", Long.toString(rows),
                        "--keys", Long.toString(KEYS),
                        "--rows-per-second", Integer.toString(rate),
                        "--checkpoint-interval-ms", "1000",
                        "--parallelism", Integer.toString(WRITE_PARALLELISM)));
        try {
            ChildJvm.Result result = new FlinkCli(CLUSTER).command(STEP_DEADLINE, cli);
            Matcher id = JOB_ID.matcher(result.output());
            if (result.exitCode() != 0 || !id.find()) {
                throw new AssertionError("flink run failed:\n" + result.output());
            }
            return id.group(1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops a job with a savepoint (REST API, no drain) and returns the savepoint's location. */
    private String stopWithSavepoint(String jobId) throws Exception {
        Path directory =
                CLUSTER.distribution().home().resolve("savepoints").resolve("sp-" + ++savepoints);
        Instant deadline = Instant.now().plus(STEP_DEADLINE);
        String lastFailure = "";
        while (Instant.now().isBefore(deadline)) {
            awaitState(jobId, Set.of("RUNNING"), deadline);
            JsonNode trigger;
            try {
                trigger =
                        JSON.readTree(
                                CLUSTER.restPost(
                                        "/jobs/" + jobId + "/stop",
                                        JSON.createObjectNode()
                                                .put(
                                                        "targetDirectory",
                                                        directory.toUri().toString())
                                                .put("drain", false)
                                                .toString()));
            } catch (IOException e) {
                lastFailure = e.toString();
                Thread.sleep(500); // the job may be restarting; poll again
                continue;
            }
            String request = trigger.path("request-id").asText();
            while (Instant.now().isBefore(deadline)) {
                JsonNode status =
                        JSON.readTree(CLUSTER.restGet("/jobs/" + jobId + "/savepoints/" + request));
                if ("COMPLETED".equals(status.path("status").path("id").asText())) {
                    JsonNode operation = status.path("operation");
                    if (operation.hasNonNull("location")) {
                        awaitState(jobId, Set.of("FINISHED"), deadline);
                        return operation.get("location").asText();
                    }
                    lastFailure = operation.path("failure-cause").toString();
                    break;
                }
                Thread.sleep(200); // polling interval
            }
            // A failed stop (e.g. a checkpoint failed meanwhile) leaves the job running: retry.
        }
        throw new AssertionError(
                "Stop with savepoint of " + jobId + " did not complete: " + lastFailure);
    }

    private void awaitFinished(String jobId) throws Exception {
        awaitState(jobId, Set.of("FINISHED"), Instant.now().plus(STEP_DEADLINE));
    }

    private void awaitState(String jobId, Set<String> states, Instant deadline) throws Exception {
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            try {
                last = CLUSTER.jobState(jobId);
                if (states.contains(last)) {
                    return;
                }
                if (Set.of("FAILED", "CANCELED").contains(last)) {
                    break;
                }
            } catch (IOException e) {
                last = e.toString(); // e.g. a JobManager that is still recovering the job
            }
            Thread.sleep(200); // polling interval
        }
        throw new AssertionError("Job " + jobId + " is " + last + ", expected " + states);
    }

    private void assertStillRunning(int faultsSoFar) throws Exception {
        for (String job : List.of(appendJob, upsertJob)) {
            String state;
            try {
                state = CLUSTER.jobState(job);
            } catch (IOException e) {
                continue; // recovering; the next wait for commits decides
            }
            assertThat(state)
                    .as(
                            "job %s after %d faults: its input of %d rows must outlast the faults;"
                                    + " raise -Dsoak.seconds-per-fault (now %d)",
                            job, faultsSoFar, ROWS, SECONDS_PER_FAULT)
                    .isNotIn("FINISHED", "FAILED", "CANCELED");
        }
    }

    // ---------------------------------------------------------------- tables

    private static void createTables() {
        createNamespaceIfMissing();
        Schema append =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.required(2, "part", Types.IntegerType.get()),
                        Types.NestedField.optional(3, "payload", Types.StringType.get()));
        REST.backend()
                .createTable(
                        APPEND,
                        append,
                        PartitionSpec.builderFor(append).identity("part").build(),
                        Map.of("format-version", "2"));
        createUpsertTable(UPSERT);
    }

    private static void createNamespaceIfMissing() {
        SupportsNamespaces namespaces = (SupportsNamespaces) REST.backend();
        if (!namespaces.namespaceExists(Namespace.of("soak"))) {
            namespaces.createNamespace(Namespace.of("soak"), new HashMap<>());
        }
    }

    private static void createUpsertTable(TableIdentifier id) {
        Schema upsert =
                new Schema(
                        List.of(
                                Types.NestedField.required(1, "key", Types.LongType.get()),
                                Types.NestedField.required(2, "version", Types.LongType.get()),
                                Types.NestedField.optional(3, "payload", Types.StringType.get())),
                        Set.of(1));
        REST.backend()
                .createTable(
                        id, upsert, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    }

    /** The rows the table's current snapshot holds (Iceberg's {@code total-records}). */
    private static long committedRows(TableIdentifier table) {
        Snapshot current = REST.backend().loadTable(table).currentSnapshot();
        return current == null ? 0 : Long.parseLong(current.summary().get("total-records"));
    }

    private static Long currentSnapshot(TableIdentifier table) {
        Snapshot current = REST.backend().loadTable(table).currentSnapshot();
        return current == null ? null : current.snapshotId();
    }

    /** Waits until both tables' current snapshots differ from the given ones (null: none yet). */
    private void awaitNewCommits(Long appendBefore, Long upsertBefore, String what)
            throws Exception {
        Instant deadline = Instant.now().plus(STEP_DEADLINE);
        boolean append = false;
        boolean upsert = false;
        while (Instant.now().isBefore(deadline)) {
            append = append || !java.util.Objects.equals(currentSnapshot(APPEND), appendBefore);
            upsert = upsert || !java.util.Objects.equals(currentSnapshot(UPSERT), upsertBefore);
            if (append && upsert) {
                return;
            }
            Thread.sleep(200); // polling interval
        }
        throw new AssertionError(
                String.format(
                        "No new commit for %s within %s (append table: %s, upsert table: %s)\n%s",
                        what, STEP_DEADLINE, append, upsert, CLUSTER.logTails(60)));
    }

    private static Map<Long, List<Record>> readByLong(TableIdentifier id, String column)
            throws IOException {
        Table table = REST.backend().loadTable(id);
        Map<Long, List<Record>> rows = new HashMap<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                rows.computeIfAbsent((Long) record.getField(column), k -> new ArrayList<>())
                        .add(record.copy());
            }
        }
        return rows;
    }

    private static void assertExactAppend(Map<Long, List<Record>> rows) {
        List<Long> lost = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            if (!rows.containsKey(id)) {
                lost.add(id);
            }
        }
        Map<Long, Integer> duplicated = duplicates(rows);
        List<Long> unexpected =
                rows.keySet().stream().filter(id -> id < 0 || id >= ROWS).sorted().toList();
        assertThat(lost).as("append table: lost ids (%d)", lost.size()).isEmpty();
        assertThat(duplicated).as("append table: ids written more than once").isEmpty();
        assertThat(unexpected).as("append table: ids never sent").isEmpty();
        rows.forEach(
                (id, records) -> {
                    Record record = records.get(0);
                    assertThat(record.getField("part")).isEqualTo((int) (id % PARTS));
                    assertThat(record.getField("payload")).isEqualTo("row-" + id);
                });
    }

    private static void assertExactUpsert(Map<Long, List<Record>> rows, long total) {
        List<Long> lost = new ArrayList<>();
        for (long key = 0; key < KEYS; key++) {
            if (!rows.containsKey(key)) {
                lost.add(key);
            }
        }
        Map<Long, Integer> duplicated = duplicates(rows);
        assertThat(lost).as("upsert table: lost keys (%d)", lost.size()).isEmpty();
        assertThat(duplicated).as("upsert table: keys present more than once").isEmpty();
        assertThat(rows).hasSize((int) KEYS);
        Map<Long, String> stale = new HashMap<>();
        rows.forEach(
                (key, records) -> {
                    long last = key + KEYS * ((total - 1 - key) / KEYS);
                    Record record = records.get(0);
                    if (!Long.valueOf(last).equals(record.getField("version"))
                            || !("v-" + last).equals(record.getField("payload"))) {
                        stale.put(
                                key,
                                "version "
                                        + record.getField("version")
                                        + " / "
                                        + record.getField("payload")
                                        + ", expected "
                                        + last);
                    }
                });
        assertThat(stale).as("upsert table: keys without their last update").isEmpty();
    }

    private static Map<Long, Integer> duplicates(Map<Long, List<Record>> rows) {
        return rows.entrySet().stream()
                .filter(e -> e.getValue().size() > 1)
                .limit(50)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size()));
    }

    // ---------------------------------------------------------------- report

    private String summary(
            Instant start, Map<Long, List<Record>> appendRows, Map<Long, List<Record>> upsertRows) {
        StringBuilder text = new StringBuilder();
        text.append("Exactly-once soak summary\n");
        log.forEach(line -> text.append("  ").append(line).append('\n'));
        text.append(
                String.format(
                        "faults injected: %d (%s)%n",
                        injected.values().stream().mapToInt(Integer::intValue).sum(), injected));
        text.append(
                String.format(
                        "append table: %d rows expected, %d distinct ids, %d rows read, %d"
                                + " snapshots%n",
                        ROWS,
                        appendRows.size(),
                        appendRows.values().stream().mapToInt(List::size).sum(),
                        snapshotCount(APPEND)));
        text.append(
                String.format(
                        "upsert table: %d updates of %d keys, %d distinct keys, %d rows read, %d"
                                + " snapshots%n",
                        ROWS,
                        KEYS,
                        upsertRows.size(),
                        upsertRows.values().stream().mapToInt(List::size).sum(),
                        snapshotCount(UPSERT)));
        text.append(
                String.format(
                        "duration: %d s%n", Duration.between(start, Instant.now()).toSeconds()));
        return text.toString();
    }

    private static long snapshotCount(TableIdentifier id) {
        long count = 0;
        for (Snapshot ignored : REST.backend().loadTable(id).snapshots()) {
            count++;
        }
        return count;
    }

    private void note(String format, Object... args) {
        String line = String.format(format, args);
        log.add(line);
        System.out.println("[soak] " + line);
    }

    private static Path soakJobJar() {
        Path dir = E2eArtifacts.flinkParts().resolve("jobs");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-soak-job.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("No *-soak-job.jar in " + dir));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
