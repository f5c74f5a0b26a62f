package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.flink.source.IcebergSource;
import org.apache.iceberg.flink.source.StreamingStartingStrategy;

/**
 * Runs one of the suite's workloads once through Apache Iceberg's own Flink connector, through its
 * public API only, the way the suite's {@code WorkloadRunner} runs it through ours: the same
 * generated rows, table layout and properties, the same local MiniCluster settings, measured part,
 * answer checks and SQL workloads (its base {@link WorkloadJobs}, shared with ours). What each
 * workload uses of Iceberg's connector:
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
 *       IcebergSource} into a counting sink;
 *   <li>the streaming workloads: the same {@code IcebergSink} and {@code FlinkSink} in streaming
 *       mode with a checkpoint every second, and {@code IcebergSource} with {@code streaming(true)}
 *       and {@code monitorInterval} for the freshness read.
 * </ul>
 */
final class ReferenceRunner extends WorkloadJobs {

    private final CatalogLoader catalogLoader;

    ReferenceRunner(BenchmarkTables tables, BenchmarkRows data, long rows) {
        super(tables, data, rows, "reference-");
        this.catalogLoader =
                CatalogLoader.hadoop(
                        BenchmarkTables.CATALOG,
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", tables.warehouseUri()));
    }

    /** Iceberg's connector's loader of a table of the suite's catalog. */
    private TableLoader loader(String name) {
        return TableLoader.fromCatalog(catalogLoader, BenchmarkTables.identifier(name));
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
            case STREAM_APPEND:
                return streamAppend(workload, run);
            case STREAM_UPSERT:
                return streamUpsert(workload, run);
            case STREAM_FRESHNESS:
                return streamFreshness(workload, run);
            default:
                throw new IllegalArgumentException(
                        "No reference runner for workload " + workload.id());
        }
    }

    private Measurement append(Workload workload, int run, DistributionMode distribution)
            throws Exception {
        String name = tableName(workload, run);
        tables.create(
                name,
                BenchmarkRows.SCHEMA,
                spec(workload),
                workload.format(),
                workload.formatVersion());
        StreamExecutionEnvironment env = environment();
        IcebergSink.forRowData(GeneratedRows.stream(env, data, rows, 1))
                .tableLoader(loader(name))
                .distributionMode(distribution)
                .append();
        return writeResult(workload, name, execute(env, label(workload.id())));
    }

    private Measurement upsert(Workload workload, int run) throws Exception {
        UpsertInput input = upsertInput(workload, run);
        StreamExecutionEnvironment env = environment();
        FlinkSink.forRowData(input.changes(env))
                .tableLoader(loader(input.name()))
                .upsert(true)
                .equalityFieldColumns(List.of("id"))
                .append();
        return upsertResult(input, execute(env, label(workload.id())));
    }

    private Measurement scan(FileFormat format) throws Exception {
        Table table = tables.source(format, data, rows);
        Measurement.Span span =
                fullScanOf(BenchmarkTables.sourceTableName(format), label("scan " + format));
        return readResult(table, span);
    }

    /** Its {@code IcebergSource} over every row of the table into a counting sink. */
    @Override
    Measurement.Span fullScanOf(String name, String job) throws Exception {
        StreamExecutionEnvironment env = environment();
        String counter = label("scan-" + System.nanoTime());
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

    /** Its {@code IcebergSink} (Sink V2), as in the batch appends. */
    @Override
    void appendSink(DataStream<RowData> input, String table) {
        IcebergSink.forRowData(input)
                .tableLoader(loader(table))
                .distributionMode(DistributionMode.NONE)
                .append();
    }

    /** Its {@code FlinkSink} with {@code upsert(true)}, as in the batch upsert. */
    @Override
    void upsertSink(DataStream<RowData> input, String table) {
        FlinkSink.forRowData(input)
                .tableLoader(loader(table))
                .upsert(true)
                .equalityFieldColumns(List.of("id"))
                .append();
    }

    /** Its {@code IcebergSource} in streaming mode. */
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

    /**
     * None: Iceberg's connector has no conversion of equality deletes into position deletes (its
     * maintenance compacts whole data files instead), so the reference's stream-upsert reports only
     * the scan with the equality deletes live.
     */
    @Override
    double rewriteEqualityDeletes(String table) {
        return -1;
    }

    private Measurement scanProjectedFiltered() throws Exception {
        Table table = tables.source(FileFormat.PARQUET, data, rows);
        Schema projected = BenchmarkRows.SCHEMA.select("id", "quantity");
        StreamExecutionEnvironment env = environment();
        String counter = label("scan-projected-filtered-" + System.nanoTime());
        env.fromSource(
                        IcebergSource.forRowData()
                                .tableLoader(
                                        loader(BenchmarkTables.sourceTableName(FileFormat.PARQUET)))
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
                .sinkTo(new CountingSink<>(counter));
        Measurement.Span span = execute(env, label("scan-projected-filtered"));
        expectCount(
                label("scan-projected-filtered (quantity < " + BenchmarkRows.FILTER_QUANTITY + ")"),
                data.filteredCount(rows),
                CountingSink.count(counter));
        return readResult(table, span);
    }
}
