package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
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
}
