package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/**
 * What a run of a workload does the same whichever connector it runs through: the job environment,
 * the measured execution, the answer checks, and the SQL workloads, whose statements name only the
 * catalog type {@code 'iceberg'} and so run through whichever connector is on the class path. Our
 * {@link WorkloadRunner} and the reference launcher's runner of Iceberg's own connector extend it,
 * so both sides of a comparison run exactly the same jobs around the connector's calls. It uses no
 * class of either connector (the reference launcher compiles it on Iceberg's connector's class
 * path).
 */
abstract class WorkloadJobs {

    /** The parallelism of every Flink job of the suite. */
    static final int PARALLELISM = 2;

    /**
     * The managed memory of the local TaskManager: what a TaskManager of Flink's default process
     * size (1728m) gets, 0.4 of its Flink memory. The local default of 128m would make batch sorts
     * (the upsert's keyed sort) spill to disk where a cluster's would not.
     */
    static final MemorySize MANAGED_MEMORY = MemorySize.parse("512m");

    final BenchmarkTables tables;
    final BenchmarkRows data;
    final long rows;
    private final String labelPrefix;

    /**
     * @param tables the tables of this suite run
     * @param data the rows every workload writes or reads
     * @param rows how many rows (ids {@code [0, rows)})
     * @param labelPrefix what job names, table names and answer messages start with ("" for ours)
     */
    WorkloadJobs(BenchmarkTables tables, BenchmarkRows data, long rows, String labelPrefix) {
        this.tables = tables;
        this.data = data;
        this.rows = rows;
        this.labelPrefix = labelPrefix;
    }

    /** The rows the upsert rewrites: every fourth id, so a quarter of the table. */
    static long upsertRows(long rows) {
        return (rows + 3) / 4;
    }

    /** The partitioned workloads' tables are partitioned by the 16-value category. */
    static PartitionSpec spec(Workload workload) {
        return workload.kind().partitioned()
                ? PartitionSpec.builderFor(BenchmarkRows.SCHEMA).identity("category").build()
                : PartitionSpec.unpartitioned();
    }

    /** The job name and answer label of a workload (or of a part of one). */
    String label(String what) {
        return labelPrefix + what;
    }

    /** The table of a workload's run: its label with underscores. */
    String tableName(Workload workload, int run) {
        return BenchmarkTables.tableName(label(workload.id()), run);
    }

    static StreamExecutionEnvironment environment() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MANAGED_MEMORY);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        return env;
    }

    /**
     * Runs the job; its time is the job's net runtime, its CPU and memory the process's over
     * execute().
     */
    static Measurement.Span execute(StreamExecutionEnvironment env, String name) throws Exception {
        Measurement.Stopwatch watch = Measurement.start();
        JobExecutionResult result = env.execute(name);
        return watch.stop(result.getNetRuntime() / 1000.0);
    }

    /** {@code INSERT INTO} an unpartitioned table from the generated rows, through the catalog. */
    Measurement sqlInsert(Workload workload, int run) throws Exception {
        String name = tableName(workload, run);
        tables.create(
                name,
                BenchmarkRows.SCHEMA,
                PartitionSpec.unpartitioned(),
                workload.format(),
                workload.formatVersion());
        StreamExecutionEnvironment env = environment();
        StreamTableEnvironment tableEnv = tableEnvironment(env);
        tableEnv.createTemporaryView(
                "generated", tableEnv.fromDataStream(GeneratedRows.stream(env, data, rows, 1)));
        Measurement.Stopwatch watch = Measurement.start();
        TableResult result =
                tableEnv.executeSql("INSERT INTO " + qualified(name) + " SELECT * FROM generated");
        JobExecutionResult job = result.getJobClient().orElseThrow().getJobExecutionResult().get();
        return writeResult(workload, name, watch.stop(job.getNetRuntime() / 1000.0));
    }

    /** {@code SELECT COUNT(*)} of the Parquet source table. */
    Measurement sqlCount() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        SqlAnswer answer =
                query(
                        "SELECT COUNT(*) FROM "
                                + qualified(BenchmarkTables.sourceTableName(FileFormat.PARQUET)));
        expectCount(
                label("sql-count"),
                rows,
                answer.rows.isEmpty() ? -1 : number(answer.rows.get(0), 0));
        return readResult(table, answer.span);
    }

    /** A filtered aggregation by category of the Parquet source table. */
    Measurement sqlFilter() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        SqlAnswer answer =
                query(
                        "SELECT category, COUNT(*) AS n, SUM(price) AS total FROM "
                                + qualified(BenchmarkTables.sourceTableName(FileFormat.PARQUET))
                                + " WHERE quantity < "
                                + BenchmarkRows.FILTER_QUANTITY
                                + " GROUP BY category");
        long count = 0;
        for (Row row : answer.rows) {
            count += number(row, 1);
        }
        expectCount(
                label("sql-filter (sum of the per-category counts)"),
                data.filteredCount(rows),
                count);
        if (answer.rows.size() > BenchmarkRows.CATEGORIES) {
            throw new WrongAnswerException(
                    label("sql-filter: ")
                            + answer.rows.size()
                            + " groups, at most "
                            + BenchmarkRows.CATEGORIES
                            + " categories exist");
        }
        return readResult(table, answer.span);
    }

    private SqlAnswer query(String sql) throws Exception {
        StreamTableEnvironment tableEnv = tableEnvironment(environment());
        Measurement.Stopwatch watch = Measurement.start();
        TableResult result = tableEnv.executeSql(sql);
        JobClient client = result.getJobClient().orElseThrow();
        List<Row> answerRows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(answerRows::add);
        }
        double seconds;
        try {
            seconds = client.getJobExecutionResult().get().getNetRuntime() / 1000.0;
        } catch (Exception e) {
            // the per-job cluster may be gone once the result was collected: fall back to wall time
            seconds = watch.elapsedSeconds();
        }
        return new SqlAnswer(answerRows, watch.stop(seconds));
    }

    private static long number(Row row, int field) {
        Object value = row.getField(field);
        if (!(value instanceof Number)) {
            throw new WrongAnswerException("Expected a number in column " + field + " of " + row);
        }
        return ((Number) value).longValue();
    }

    /** Checks that the written table holds every row, measures its files, then drops it. */
    Measurement writeResult(Workload workload, String name, Measurement.Span span) {
        Table table = tables.load(name);
        expectCount(
                label(workload.id()) + " (rows in " + name + ")",
                rows,
                BenchmarkTables.recordCount(table));
        Measurement measurement =
                new Measurement(
                        rows,
                        span,
                        BenchmarkTables.fileCount(table),
                        BenchmarkTables.fileBytes(table));
        tables.drop(name);
        return measurement;
    }

    Measurement readResult(Table table, Measurement.Span span) {
        return new Measurement(
                rows, span, BenchmarkTables.fileCount(table), BenchmarkTables.fileBytes(table));
    }

    static void expectCount(String what, long expected, long actual) {
        if (expected != actual) {
            throw new WrongAnswerException(
                    what + ": expected " + expected + " rows, found " + actual);
        }
    }

    static String qualified(String table) {
        return BenchmarkTables.CATALOG + "." + BenchmarkTables.NAMESPACE + "." + table;
    }

    private StreamTableEnvironment tableEnvironment(StreamExecutionEnvironment env) {
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        tableEnv.executeSql(
                String.format(
                        "CREATE CATALOG %s WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                                + " 'warehouse'='%s')",
                        BenchmarkTables.CATALOG, tables.warehouseUri()));
        return tableEnv;
    }

    private record SqlAnswer(List<Row> rows, Measurement.Span span) {}

    // ---- the streaming workloads: the same jobs around each connector's sink and source ----

    /** The checkpoint interval of the streaming workloads; every checkpoint commits. */
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

    /** How often the freshness workload's streaming read looks for new snapshots. */
    static final Duration MONITOR_INTERVAL = Duration.ofSeconds(1);

    /** The pace of the freshness workload's writer, in rows per second over both subtasks. */
    static final long FRESHNESS_ROWS_PER_SECOND = 10_000;

    /** The freshness workload writes at most this many seconds of rows at its pace. */
    static final long FRESHNESS_SECONDS = 30;

    /** How long the freshness workload waits for the reader to start and to see every row. */
    private static final Duration READER_DEADLINE = Duration.ofSeconds(120);

    /** The rows the freshness workload writes: {@code rows}, at most 30 s at its pace. */
    static long freshnessRows(long rows) {
        return Math.min(rows, FRESHNESS_ROWS_PER_SECOND * FRESHNESS_SECONDS);
    }

    /**
     * The bound the freshness of a commit must stay within: checkpoint interval + monitor interval
     * + 1 s.
     */
    static long freshnessBoundMillis() {
        return CHECKPOINT_INTERVAL.toMillis() + MONITOR_INTERVAL.toMillis() + 1000;
    }

    /**
     * A job environment in streaming mode with a checkpoint every {@link #CHECKPOINT_INTERVAL};
     * otherwise as {@link #environment()}. Bounded inputs end the job after a final checkpoint,
     * whose commit is part of the job's runtime.
     */
    static StreamExecutionEnvironment streamingEnvironment() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MANAGED_MEMORY);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(CHECKPOINT_INTERVAL.toMillis());
        return env;
    }

    /** Adds the connector's appending sink (no distribution, no identifier fields) to a job. */
    abstract void appendSink(DataStream<RowData> input, String table);

    /** Adds the connector's upserting sink keyed by {@code id} to a job. */
    abstract void upsertSink(DataStream<RowData> input, String table);

    /**
     * Adds the connector's unbounded streaming read of a table to a job (parallelism 2, every
     * snapshot from the first, looking for new ones every {@code monitorInterval}).
     */
    abstract DataStream<RowData> streamingRead(
            StreamExecutionEnvironment env, String table, Duration monitorInterval);

    /**
     * Scans every row of a table through the connector's source in a batch job into a counting sink
     * and checks that it counted {@link #rows}.
     */
    abstract Measurement.Span fullScanOf(String table, String job) throws Exception;

    /**
     * Converts the table's equality deletes with the connector's maintenance and returns its
     * seconds, or a negative number when the connector has none.
     */
    abstract double rewriteEqualityDeletes(String table) throws Exception;

    /**
     * The generated rows appended by a streaming job with a checkpoint every second; the answer is
     * the table's record count, and the result carries the commits the job made.
     */
    Measurement streamAppend(Workload workload, int run) throws Exception {
        String name = tableName(workload, run);
        tables.create(
                name,
                BenchmarkRows.SCHEMA,
                PartitionSpec.unpartitioned(),
                workload.format(),
                workload.formatVersion());
        StreamExecutionEnvironment env = streamingEnvironment();
        appendSink(GeneratedRows.stream(env, data, rows, 1), name);
        Measurement.Span span = execute(env, label(workload.id()));
        Table table = tables.load(name);
        Map<String, String> details = new LinkedHashMap<>();
        details.put("commits", String.valueOf(commits(table)));
        Measurement measurement = writeResult(workload, name, span);
        return new Measurement(
                measurement.rows(),
                measurement.span(),
                measurement.files(),
                measurement.bytes(),
                details);
    }

    /**
     * The table of an upsert workload and the changes to upsert into it: a keyed table of the
     * workload's format and version holding the generated rows (written untimed by the generic
     * writer), and new values (from the next seed) for every fourth id.
     */
    record UpsertInput(String name, Table table, BenchmarkRows updates, long updated) {

        /** The changes, as a bounded stream of rows of {@code env}. */
        DataStream<RowData> changes(StreamExecutionEnvironment env) {
            return GeneratedRows.stream(env, updates, updated, 4);
        }
    }

    /** Creates and fills the table of an upsert workload (untimed). */
    UpsertInput upsertInput(Workload workload, int run) {
        String name = tableName(workload, run);
        Table table =
                tables.create(
                        name,
                        BenchmarkRows.KEYED_SCHEMA,
                        PartitionSpec.unpartitioned(),
                        workload.format(),
                        workload.formatVersion());
        GenericLimits.write(table, data, rows);
        return new UpsertInput(name, table, new BenchmarkRows(data.seed() + 1), upsertRows(rows));
    }

    /**
     * Checks the whole content of a batch upsert's table ({@link UpsertContentCheck}), then drops
     * it; the result counts the rows upserted.
     */
    Measurement upsertResult(UpsertInput input, Measurement.Span span) {
        Table table = input.table();
        table.refresh();
        new UpsertContentCheck(table, data, input.updates(), rows, input.updated()).check();
        Measurement measurement =
                new Measurement(
                        input.updated(),
                        span,
                        BenchmarkTables.fileCount(table),
                        BenchmarkTables.fileBytes(table));
        tables.drop(input.name());
        return measurement;
    }

    /**
     * A quarter of the keys of a table (written untimed by the generic writer) upserted by a
     * streaming job with a checkpoint every second, checked row by row; then, each outside the
     * measured part but measured, a full scan of the upserted table through the connector's source
     * and, where the connector has an equality-delete conversion, the same scan after it (the
     * content checked again). The result's details carry the commits, the equality-delete rows the
     * upsert left, and the scans' rows/s and CPU seconds.
     */
    Measurement streamUpsert(Workload workload, int run) throws Exception {
        UpsertInput input = upsertInput(workload, run);
        String name = input.name();
        Table table = input.table();
        long updated = input.updated();
        StreamExecutionEnvironment env = streamingEnvironment();
        upsertSink(input.changes(env), name);
        Measurement.Span span = execute(env, label(workload.id()));
        table.refresh();
        StreamUpsertCheck check = new StreamUpsertCheck(data, input.updates(), rows, updated);
        check.check(table, label(workload.id()));
        Map<String, String> details = new LinkedHashMap<>();
        details.put("commits", String.valueOf(commits(table) - 1));
        details.put("eq_delete_rows", String.valueOf(equalityDeleteRows(table)));
        putScan(details, "scan", fullScanOf(name, label(workload.id() + " scan")));
        double rewriteSeconds = rewriteEqualityDeletes(name);
        if (rewriteSeconds >= 0) {
            table.refresh();
            if (equalityDeleteRows(table) != 0) {
                throw new WrongAnswerException(
                        label(workload.id())
                                + ": equality deletes left after RewriteEqualityDeletes: "
                                + equalityDeleteRows(table)
                                + " rows");
            }
            check.check(table, label(workload.id()) + " after the rewrite");
            details.put("rewrite_s", String.format(Locale.ROOT, "%.3f", rewriteSeconds));
            putScan(
                    details,
                    "rewritten_scan",
                    fullScanOf(name, label(workload.id() + " scan after the rewrite")));
        }
        Measurement measurement =
                new Measurement(
                        updated,
                        span,
                        BenchmarkTables.fileCount(table),
                        BenchmarkTables.fileBytes(table),
                        details);
        tables.drop(name);
        return measurement;
    }

    private void putScan(Map<String, String> details, String prefix, Measurement.Span scan) {
        details.put(
                prefix + "_rows_per_s",
                String.format(Locale.ROOT, "%.0f", scan.seconds() > 0 ? rows / scan.seconds() : 0));
        details.put(prefix + "_cpu_s", String.format(Locale.ROOT, "%.2f", scan.cpuSeconds()));
    }

    /**
     * A streaming append at a steady pace ({@link #FRESHNESS_ROWS_PER_SECOND}, at most {@link
     * #FRESHNESS_SECONDS} s of rows) with a checkpoint every second, and in the same JVM an
     * unbounded streaming read of the same table started before it: for every commit, the time from
     * the commit to the arrival of its last row in the reader ({@link CommitFreshness}). The
     * writer's job ends after its final checkpoint; the reader's is cancelled once every row
     * arrived (each exactly once, with its generated values). Its time and CPU are the writer
     * job's, with the reader running beside it; the details carry the commits, p50, p99 and the
     * largest latency, the bound and whether both percentiles are within it.
     */
    Measurement streamFreshness(Workload workload, int run) throws Exception {
        String name = tableName(workload, run);
        long count = freshnessRows(rows);
        tables.create(
                name,
                BenchmarkRows.SCHEMA,
                PartitionSpec.unpartitioned(),
                workload.format(),
                workload.formatVersion());
        String sinkName = label("arrivals-" + System.nanoTime());
        StreamExecutionEnvironment readEnv = streamingEnvironment();
        streamingRead(readEnv, name, MONITOR_INTERVAL)
                .sinkTo(new ArrivalSink(sinkName, data, count))
                .setParallelism(PARALLELISM);
        JobClient reader = readEnv.executeAsync(label(workload.id() + " read"));
        ArrivalSink.Arrivals arrivals = ArrivalSink.arrivals(sinkName);
        Measurement.Span span;
        try {
            // the reader's tasks run (its sink writers exist) before the first commit
            await(() -> arrivals.writers() >= PARALLELISM, label(workload.id()) + ": reader start");
            StreamExecutionEnvironment writeEnv = streamingEnvironment();
            appendSink(
                    GeneratedRows.throttled(writeEnv, data, count, FRESHNESS_ROWS_PER_SECOND),
                    name);
            span = execute(writeEnv, label(workload.id()));
            await(
                    () -> arrivals.arrived() >= count,
                    label(workload.id()) + ": " + count + " rows in the reader");
        } finally {
            reader.cancel().get();
        }
        arrivals.check(label(workload.id()) + " (the streaming read)");
        Table table = tables.load(name);
        expectCount(
                label(workload.id()) + " (rows in " + name + ")",
                count,
                BenchmarkTables.recordCount(table));
        CommitFreshness freshness = CommitFreshness.of(table, arrivals);
        long p50 = freshness.percentile(0.5);
        long p99 = freshness.percentile(0.99);
        long bound = freshnessBoundMillis();
        Map<String, String> details = new LinkedHashMap<>();
        details.put("commits", String.valueOf(freshness.commits()));
        details.put("p50_ms", String.valueOf(p50));
        details.put("p99_ms", String.valueOf(p99));
        details.put("max_ms", String.valueOf(freshness.percentile(1.0)));
        details.put("bound_ms", String.valueOf(bound));
        details.put("within", p50 <= bound && p99 <= bound ? "yes" : "no");
        Measurement measurement =
                new Measurement(
                        count,
                        span,
                        BenchmarkTables.fileCount(table),
                        BenchmarkTables.fileBytes(table),
                        details);
        tables.drop(name);
        return measurement;
    }

    /** Waits for a condition, failing with {@code what} after {@link #READER_DEADLINE}. */
    private static void await(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + READER_DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new WrongAnswerException(
                        what + ": not reached within " + READER_DEADLINE.toSeconds() + " s");
            }
            Thread.sleep(10);
        }
    }

    /** The snapshots of a table: the commits made since it was created. */
    static int commits(Table table) {
        int commits = 0;
        for (org.apache.iceberg.Snapshot ignored : table.snapshots()) {
            commits++;
        }
        return commits;
    }

    /** The equality-delete rows live in the table's current snapshot (0 without a snapshot). */
    static long equalityDeleteRows(Table table) {
        org.apache.iceberg.Snapshot current = table.currentSnapshot();
        String total =
                current == null
                        ? null
                        : current.summary()
                                .get(org.apache.iceberg.SnapshotSummary.TOTAL_EQ_DELETES_PROP);
        return total == null ? 0 : Long.parseLong(total);
    }
}
