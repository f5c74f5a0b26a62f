package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.sink.dynamic.DynamicIcebergSink;
import dev.icebergflink.source.ChangelogReadMode;
import dev.icebergflink.source.IcebergSource;
import dev.icebergflink.source.StreamingStartingStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Runs one workload once in this JVM: prepares its table (untimed), runs the measured part on a
 * local MiniCluster with parallelism 2 in batch mode (streaming with a checkpoint every second for
 * the streaming workloads; or the generic limit on one thread per core) and checks the answer,
 * throwing {@link WrongAnswerException} when it is wrong.
 */
final class WorkloadRunner extends WorkloadJobs {

    private final CatalogLoader catalogLoader;

    /**
     * @param tables the tables of this suite run
     * @param data the rows every workload writes or reads
     * @param rows how many rows (ids {@code [0, rows)})
     */
    WorkloadRunner(BenchmarkTables tables, BenchmarkRows data, long rows) {
        super(tables, data, rows, "");
        this.catalogLoader = catalogLoader(tables);
    }

    /** Our loader of the suite's catalog {@code lake}. */
    static CatalogLoader catalogLoader(BenchmarkTables tables) {
        return CatalogLoader.hadoop(
                BenchmarkTables.CATALOG,
                new org.apache.hadoop.conf.Configuration(),
                Map.of("warehouse", tables.warehouseUri()));
    }

    /** Our loader of a table of the suite's catalog. */
    static TableLoader loader(BenchmarkTables tables, String name) {
        return TableLoader.fromCatalog(catalogLoader(tables), BenchmarkTables.identifier(name));
    }

    private TableLoader loader(String name) {
        return TableLoader.fromCatalog(catalogLoader, BenchmarkTables.identifier(name));
    }

    Measurement run(Workload workload, int run) throws Exception {
        switch (workload.kind()) {
            case GENERATOR:
                return generator();
            case LIMIT_WRITE:
            case LIMIT_WRITE_PARTITIONED:
                return limitWrite(workload, run);
            case LIMIT_READ:
                return limitRead(workload.format());
            case APPEND:
                return append(workload, run, DistributionMode.NONE);
            case APPEND_PARTITIONED:
                return append(workload, run, DistributionMode.HASH);
            case SQL_INSERT:
                return sqlInsert(workload, run);
            case UPSERT:
                return upsert(workload, run);
            case DYNAMIC_APPEND:
                return dynamicAppend(workload, run);
            case SCAN:
                return scan(workload.format());
            case SCAN_PROJECTED_FILTERED:
                return scanProjectedFiltered();
            case SQL_COUNT:
                return sqlCount();
            case SQL_FILTER:
                return sqlFilter();
            case EQDELETE_SCAN:
                return eqDeleteScan(workload, run);
            case EQDELETE_REWRITTEN_SCAN:
                return eqDeleteRewrittenScan(workload, run);
            case CHANGELOG_READ:
                return changelogRead(workload, run);
            case STREAM_APPEND:
                return streamAppend(workload, run);
            case STREAM_UPSERT:
                return streamUpsert(workload, run);
            case STREAM_FRESHNESS:
                return streamFreshness(workload, run);
            default:
                throw new IllegalArgumentException("No runner for workload " + workload.id());
        }
    }

    private Measurement generator() throws Exception {
        StreamExecutionEnvironment env = environment();
        String counter = "generator-" + System.nanoTime();
        GeneratedRows.stream(env, data, rows, 1).sinkTo(new CountingSink<>(counter));
        Measurement.Span span = execute(env, "generator");
        expectCount("generator", rows, CountingSink.count(counter));
        return new Measurement(rows, span, 0, 0);
    }

    private Measurement limitWrite(Workload workload, int run) {
        String name = tableName(workload, run);
        Table table = tables.create(name, spec(workload), workload.format(), 2);
        Measurement.Stopwatch watch = Measurement.start();
        GenericLimits.write(table, data, rows);
        return writeResult(workload, name, watch.stop());
    }

    private Measurement limitRead(FileFormat format) {
        Table table = tables.source(format, data, rows);
        Measurement.Stopwatch watch = Measurement.start();
        long count = GenericLimits.read(table);
        Measurement.Span span = watch.stop();
        expectCount("limit-read " + format, rows, count);
        return readResult(table, span);
    }

    private Measurement append(Workload workload, int run, DistributionMode distribution)
            throws Exception {
        String name = tableName(workload, run);
        tables.create(name, spec(workload), workload.format(), 2);
        StreamExecutionEnvironment env = environment();
        GeneratedRows.stream(env, data, rows, 1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader(name))
                                .distributionMode(distribution)
                                .build());
        return writeResult(workload, name, execute(env, workload.id()));
    }

    private Measurement upsert(Workload workload, int run) throws Exception {
        UpsertInput input = upsertInput(workload, run);
        StreamExecutionEnvironment env = environment();
        input.changes(env)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader(input.name()))
                                .upsert(true)
                                .upsertUniqueKeys(workload == Workload.UPSERT_UNIQUE_KEYS)
                                .equalityFieldColumns(List.of("id"))
                                .build());
        return upsertResult(input, execute(env, workload.id()));
    }

    /**
     * Creates the workload's tables (untimed; unpartitioned, of the benchmark schema, in the
     * workload's format), writes the generated rows into them through one {@link
     * DynamicIcebergSink}, each row into the table its id routes to ({@link DynamicRouting}),
     * checks every table's content ({@link DynamicTablesCheck}) and drops the tables.
     *
     * <p>The tables exist before the job, as a long-running job's tables do after its first
     * checkpoint: in batch mode a record of a missing table takes the sink's table-change path
     * (keyed by table, behind a blocking exchange), so on-the-fly creation would route every row
     * through it rather than measure the write path.
     */
    private Measurement dynamicAppend(Workload workload, int run) throws Exception {
        String prefix = tableName(workload, run);
        List<String> names = DynamicRouting.tableNames(prefix, workload.tables());
        for (String name : names) {
            tables.create(name, PartitionSpec.unpartitioned(), workload.format(), 2);
        }
        StreamExecutionEnvironment env = environment();
        DynamicIcebergSink.forInput(GeneratedRows.stream(env, data, rows, 1))
                .generator(new DynamicRouting.Generator(prefix, workload.tables()))
                .catalogLoader(catalogLoader)
                .writeParallelism(PARALLELISM)
                .append();
        Measurement.Span span = execute(env, workload.id());
        List<Table> written = names.stream().map(tables::load).toList();
        new DynamicTablesCheck(data, rows).check(written);
        long files = 0;
        long bytes = 0;
        for (Table table : written) {
            files += BenchmarkTables.fileCount(table);
            bytes += BenchmarkTables.fileBytes(table);
        }
        names.forEach(tables::drop);
        return new Measurement(rows, span, files, bytes);
    }

    private Measurement scan(FileFormat format) throws Exception {
        Table table = tables.source(format, data, rows);
        Measurement.Span span =
                fullScan(BenchmarkTables.sourceTableName(format), "scan " + format.toString());
        return readResult(table, span);
    }

    @Override
    void appendSink(DataStream<RowData> input, String table) {
        input.sinkTo(
                IcebergSink.forRowData()
                        .tableLoader(loader(table))
                        .distributionMode(DistributionMode.NONE)
                        .build());
    }

    @Override
    void upsertSink(DataStream<RowData> input, String table) {
        input.sinkTo(
                IcebergSink.forRowData()
                        .tableLoader(loader(table))
                        .upsert(true)
                        .equalityFieldColumns(List.of("id"))
                        .build());
    }

    @Override
    DataStream<RowData> streamingRead(
            StreamExecutionEnvironment env, String table, Duration monitorInterval) {
        return env.fromSource(
                        IcebergSource.forRowData()
                                .tableLoader(loader(table))
                                .streaming(true)
                                .streamingStartingStrategy(
                                        StreamingStartingStrategy.TABLE_SCAN_THEN_INCREMENTAL)
                                .monitorInterval(monitorInterval)
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "iceberg streaming read",
                        InternalTypeInfo.of(BenchmarkRows.ROW_TYPE))
                .setParallelism(PARALLELISM);
    }

    @Override
    Measurement.Span fullScanOf(String table, String job) throws Exception {
        return fullScan(table, job);
    }

    /** Our {@code RewriteEqualityDeletes}, run as {@link EqualityDeleteRewrite} does. */
    @Override
    double rewriteEqualityDeletes(String table) throws Exception {
        return EqualityDeleteRewrite.run(loader(table), PARALLELISM).seconds();
    }

    /**
     * Scans every row of the table with {@code IcebergSource} into a counting sink and checks that
     * it counted {@code rows}.
     */
    private Measurement.Span fullScan(String name, String job) throws Exception {
        StreamExecutionEnvironment env = environment();
        String counter = "scan-" + System.nanoTime();
        env.fromSource(
                        IcebergSource.forRowData().tableLoader(loader(name)).build(),
                        WatermarkStrategy.noWatermarks(),
                        "iceberg source",
                        InternalTypeInfo.of(BenchmarkRows.ROW_TYPE))
                .setParallelism(PARALLELISM)
                .sinkTo(new CountingSink<>(counter));
        Measurement.Span span = execute(env, job);
        expectCount(job, rows, CountingSink.count(counter));
        return span;
    }

    /**
     * Builds the {@link UpsertedTable} (untimed) and measures a full scan of it with its equality
     * deletes live.
     */
    private Measurement eqDeleteScan(Workload workload, int run) throws Exception {
        String name = tableName(workload, run);
        Table table = UpsertedTable.create(tables, name, workload.formatVersion(), data, rows);
        if (UpsertedTableCheck.liveEqualityDeletes(table) == 0) {
            throw new WrongAnswerException(
                    workload.id() + ": the upserted table has no equality deletes");
        }
        Measurement measurement = readResult(table, fullScan(name, workload.id()));
        tables.drop(name);
        return measurement;
    }

    /**
     * Builds the same {@link UpsertedTable}, checks its rows, converts its equality deletes with
     * {@code RewriteEqualityDeletes} (untimed; its time goes to the child's log), checks that no
     * equality delete is left and the rows are unchanged, and measures the same full scan.
     */
    private Measurement eqDeleteRewrittenScan(Workload workload, int run) throws Exception {
        String name = tableName(workload, run);
        Table table = UpsertedTable.create(tables, name, workload.formatVersion(), data, rows);
        UpsertedTableCheck check = new UpsertedTableCheck(data, rows);
        check.checkRows(table, "before the conversion");
        long equalityDeletes = UpsertedTableCheck.liveEqualityDeletes(table);
        EqualityDeleteRewrite.Result rewrite = EqualityDeleteRewrite.run(loader(name), PARALLELISM);
        // to the child's log: the suite reads only stdout
        System.err.printf(
                java.util.Locale.ROOT,
                "%s: RewriteEqualityDeletes converted the %d equality delete files of the"
                        + " %d-row table in %.3f s (untimed; %d units on %d workers, %d files"
                        + " added, %d removed)%n",
                workload.id(),
                equalityDeletes,
                rows,
                rewrite.seconds(),
                rewrite.units(),
                PARALLELISM,
                rewrite.filesAdded(),
                rewrite.filesRemoved());
        table.refresh();
        UpsertedTableCheck.checkNoLiveEqualityDeletes(table);
        check.checkRows(table, "after the conversion");
        Measurement measurement = readResult(table, fullScan(name, workload.id()));
        tables.drop(name);
        return measurement;
    }

    /**
     * Builds the {@link UpsertedTable} (untimed) and measures a changelog read of its upsert
     * commits (after the initial load, exclusive): every key a commit rewrites comes out as {@code
     * -U} with its old row and {@code +U} with its new one, read by one reader as a changelog read
     * is. Its rows are the emitted changes; the answer check counts both kinds.
     */
    private Measurement changelogRead(Workload workload, int run) throws Exception {
        String name = tableName(workload, run);
        Table table = UpsertedTable.create(tables, name, workload.formatVersion(), data, rows);
        long initialLoad = SnapshotUtil.oldestAncestor(table).snapshotId();
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader(name))
                        .changelogMode(ChangelogReadMode.ALL)
                        .startSnapshotId(initialLoad)
                        .build();
        StreamExecutionEnvironment env = environment();
        String before = "changelog-before-" + System.nanoTime();
        String after = "changelog-after-" + System.nanoTime();
        DataStream<RowData> changes =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "iceberg changelog")
                        .setParallelism(1);
        changes.filter(row -> row.getRowKind() == RowKind.UPDATE_BEFORE)
                .sinkTo(new CountingSink<>(before));
        changes.filter(row -> row.getRowKind() == RowKind.UPDATE_AFTER)
                .sinkTo(new CountingSink<>(after));
        Measurement.Span span = execute(env, workload.id());
        long updates = 0;
        for (int commit = 1; commit <= UpsertedTable.UPSERT_COMMITS; commit++) {
            updates += UpsertedTable.rewrittenBy(commit, rows);
        }
        expectCount(workload.id() + " -U", updates, CountingSink.count(before));
        expectCount(workload.id() + " +U", updates, CountingSink.count(after));
        Measurement measurement =
                new Measurement(
                        2 * updates,
                        span,
                        BenchmarkTables.fileCount(table),
                        BenchmarkTables.fileBytes(table));
        tables.drop(name);
        return measurement;
    }

    private Measurement scanProjectedFiltered() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        StreamExecutionEnvironment env = environment();
        String counter = "scan-projected-filtered-" + System.nanoTime();
        TableLoader loader = loader(BenchmarkTables.sourceTableName(FileFormat.PARQUET));
        env.fromSource(
                        IcebergSource.forRowData()
                                .tableLoader(loader)
                                .project(BenchmarkRows.SCHEMA.select("id", "quantity"))
                                .filters(
                                        List.of(
                                                Expressions.lessThan(
                                                        "quantity", BenchmarkRows.FILTER_QUANTITY)))
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "iceberg source",
                        InternalTypeInfo.of(
                                dev.icebergflink.FlinkSchemaUtil.convert(
                                        BenchmarkRows.SCHEMA.select("id", "quantity"))))
                .setParallelism(PARALLELISM)
                .sinkTo(new CountingSink<>(counter));
        Measurement.Span span = execute(env, "scan-projected-filtered");
        expectCount(
                "scan-projected-filtered (quantity < " + BenchmarkRows.FILTER_QUANTITY + ")",
                data.filteredCount(rows),
                CountingSink.count(counter));
        return readResult(table, span);
    }
}
