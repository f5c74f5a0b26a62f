package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.flink.source.IcebergSource;

/**
 * Runs one of the suite's workloads once through Apache Iceberg's own Flink connector, through its
 * public API only, the way the suite's {@code WorkloadRunner} runs it through ours: the same
 * generated rows, table layout and properties, the same local MiniCluster settings (parallelism 2,
 * batch mode, 512m of managed memory, no restarts), the same measured part and the same answer
 * check. What each workload uses of Iceberg's connector:
 *
 * <ul>
 *   <li>appends (Parquet, ORC, Avro, partitioned by category with hash distribution): {@code
 *       IcebergSink}, the Sink V2 implementation Iceberg's docs call the newer of its two sinks;
 *   <li>the upsert: {@code FlinkSink} with {@code upsert(true)} and {@code
 *       equalityFieldColumns(id)} into a table written by the generic writer, checked with the
 *       suite's content check;
 *   <li>the SQL insert and the SQL count and filter: its catalog ({@code 'type'='iceberg'}) with
 *       its defaults, as a SQL user gets them;
 *   <li>the scans (full; projected to {@code id, quantity} with {@code quantity < 100}): {@code
 *       IcebergSource} into a counting sink.
 * </ul>
 */
final class ReferenceRunner {

    static final int PARALLELISM = 2;
    static final MemorySize MANAGED_MEMORY = MemorySize.parse("512m");

    private final ReferenceTables tables;
    private final BenchmarkRows data;
    private final long rows;

    ReferenceRunner(ReferenceTables tables, BenchmarkRows data, long rows) {
        this.tables = tables;
        this.data = data;
        this.rows = rows;
    }

    Measurement run(Workload workload, int run) throws Exception {
        if (!workload.hasConnectorReference()) {
            throw new IllegalArgumentException(
                    "Workload "
                            + workload.id()
                            + " has no run through Iceberg's connector; those that have one: "
                            + Workload.ids(Workload.withConnectorReference()));
        }
        switch (workload.kind()) {
            case APPEND:
                return append(workload, run, DistributionMode.NONE);
            case APPEND_PARTITIONED:
                return append(workload, run, DistributionMode.HASH);
            case SQL_INSERT:
                return sqlInsert(workload, run);
            case UPSERT:
                return upsert(workload, run);
            case SCAN:
                return scan(workload.format());
            case SCAN_PROJECTED_FILTERED:
                return scanProjectedFiltered();
            case SQL_COUNT:
                return sqlCount();
            case SQL_FILTER:
                return sqlFilter();
            default:
                throw new IllegalArgumentException(
                        "No reference runner for workload " + workload.id());
        }
    }

    private Measurement append(Workload workload, int run, DistributionMode distribution)
            throws Exception {
        String name = ReferenceTables.tableName(workload, run);
        tables.create(
                name,
                BenchmarkRows.SCHEMA,
                ReferenceTables.spec(workload),
                workload.format(),
                workload.formatVersion());
        StreamExecutionEnvironment env = environment();
        IcebergSink.forRowData(GeneratedRows.stream(env, data, rows, 1))
                .tableLoader(tables.loader(name))
                .distributionMode(distribution)
                .append();
        return writeResult(workload, name, execute(env, "reference-" + workload.id()));
    }

    private Measurement sqlInsert(Workload workload, int run) throws Exception {
        String name = ReferenceTables.tableName(workload, run);
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

    private Measurement upsert(Workload workload, int run) throws Exception {
        String name = ReferenceTables.tableName(workload, run);
        Table table =
                tables.create(
                        name,
                        BenchmarkRows.KEYED_SCHEMA,
                        PartitionSpec.unpartitioned(),
                        workload.format(),
                        workload.formatVersion());
        GenericLimits.write(table, data, rows);
        BenchmarkRows updates = new BenchmarkRows(data.seed() + 1);
        long updated = upsertRows(rows);
        StreamExecutionEnvironment env = environment();
        FlinkSink.forRowData(GeneratedRows.stream(env, updates, updated, 4))
                .tableLoader(tables.loader(name))
                .upsert(true)
                .equalityFieldColumns(List.of("id"))
                .append();
        Measurement.Span span = execute(env, "reference-" + workload.id());
        table.refresh();
        new UpsertContentCheck(table, data, updates, rows, updated).check();
        Measurement measurement =
                new Measurement(
                        updated,
                        span,
                        ReferenceTables.fileCount(table),
                        ReferenceTables.fileBytes(table));
        tables.drop(name);
        return measurement;
    }

    /** The rows the upsert rewrites: every fourth id (as the suite's upsert). */
    static long upsertRows(long rows) {
        return (rows + 3) / 4;
    }

    private Measurement scan(FileFormat format) throws Exception {
        Table table = tables.source(format, data, rows);
        StreamExecutionEnvironment env = environment();
        String counter = "reference-scan-" + System.nanoTime();
        env.fromSource(
                        IcebergSource.forRowData()
                                .tableLoader(tables.loader(ReferenceTables.sourceTableName(format)))
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "iceberg source",
                        InternalTypeInfo.of(BenchmarkRows.ROW_TYPE))
                .setParallelism(PARALLELISM)
                .sinkTo(new ReferenceCountingSink<>(counter));
        Measurement.Span span = execute(env, "reference-scan " + format);
        expectCount("reference-scan " + format, rows, ReferenceCountingSink.count(counter));
        return readResult(table, span);
    }

    private Measurement scanProjectedFiltered() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        Schema projected = BenchmarkRows.SCHEMA.select("id", "quantity");
        StreamExecutionEnvironment env = environment();
        String counter = "reference-scan-projected-filtered-" + System.nanoTime();
        env.fromSource(
                        IcebergSource.forRowData()
                                .tableLoader(
                                        tables.loader(
                                                ReferenceTables.sourceTableName(
                                                        FileFormat.PARQUET)))
                                .project(projected)
                                .filters(
                                        List.of(
                                                Expressions.lessThan(
                                                        "quantity", BenchmarkRows.FILTER_QUANTITY)))
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "iceberg source",
                        InternalTypeInfo.of(FlinkSchemaUtil.convert(projected)))
                .setParallelism(PARALLELISM)
                .sinkTo(new ReferenceCountingSink<>(counter));
        Measurement.Span span = execute(env, "reference-scan-projected-filtered");
        expectCount(
                "reference-scan-projected-filtered (quantity < "
                        + BenchmarkRows.FILTER_QUANTITY
                        + ")",
                data.filteredCount(rows),
                ReferenceCountingSink.count(counter));
        return readResult(table, span);
    }

    private Measurement sqlCount() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        SqlAnswer answer =
                query(
                        "SELECT COUNT(*) FROM "
                                + qualified(ReferenceTables.sourceTableName(FileFormat.PARQUET)));
        expectCount(
                "reference-sql-count",
                rows,
                answer.rows.isEmpty() ? -1 : number(answer.rows, 0, 0));
        return readResult(table, answer.span);
    }

    private Measurement sqlFilter() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        SqlAnswer answer =
                query(
                        "SELECT category, COUNT(*) AS n, SUM(price) AS total FROM "
                                + qualified(ReferenceTables.sourceTableName(FileFormat.PARQUET))
                                + " WHERE quantity < "
                                + BenchmarkRows.FILTER_QUANTITY
                                + " GROUP BY category");
        long count = 0;
        for (int i = 0; i < answer.rows.size(); i++) {
            count += number(answer.rows, i, 1);
        }
        expectCount(
                "reference-sql-filter (sum of the per-category counts)",
                data.filteredCount(rows),
                count);
        if (answer.rows.size() > BenchmarkRows.CATEGORIES) {
            throw new WrongAnswerException(
                    "reference-sql-filter: "
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

    private static long number(List<Row> rows, int row, int field) {
        Object value = rows.get(row).getField(field);
        if (!(value instanceof Number)) {
            throw new WrongAnswerException(
                    "Expected a number in column " + field + " of " + rows.get(row));
        }
        return ((Number) value).longValue();
    }

    private Measurement writeResult(Workload workload, String name, Measurement.Span span) {
        Table table = tables.load(name);
        expectCount(
                "reference-" + workload.id() + " (rows in " + name + ")",
                rows,
                ReferenceTables.recordCount(table));
        Measurement measurement =
                new Measurement(
                        rows,
                        span,
                        ReferenceTables.fileCount(table),
                        ReferenceTables.fileBytes(table));
        tables.drop(name);
        return measurement;
    }

    private Measurement readResult(Table table, Measurement.Span span) {
        return new Measurement(
                rows, span, ReferenceTables.fileCount(table), ReferenceTables.fileBytes(table));
    }

    private static void expectCount(String what, long expected, long actual) {
        if (expected != actual) {
            throw new WrongAnswerException(
                    what + ": expected " + expected + " rows, found " + actual);
        }
    }

    private static String qualified(String table) {
        return ReferenceTables.CATALOG + "." + ReferenceTables.NAMESPACE + "." + table;
    }

    private StreamTableEnvironment tableEnvironment(StreamExecutionEnvironment env) {
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        tableEnv.executeSql(
                String.format(
                        "CREATE CATALOG %s WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                                + " 'warehouse'='%s')",
                        ReferenceTables.CATALOG, tables.warehouseUri()));
        return tableEnv;
    }

    /** The suite's job environment ({@code WorkloadRunner.environment()}), on Flink 2.1. */
    static StreamExecutionEnvironment environment() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MANAGED_MEMORY);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        return env;
    }

    private static Measurement.Span execute(StreamExecutionEnvironment env, String name)
            throws Exception {
        Measurement.Stopwatch watch = Measurement.start();
        JobExecutionResult result = env.execute(name);
        return watch.stop(result.getNetRuntime() / 1000.0);
    }

    private record SqlAnswer(List<Row> rows, Measurement.Span span) {}
}
