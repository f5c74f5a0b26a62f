package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.RowDataConstants;
import dev.icebergflink.data.RowDataFileReaders;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.data.RowDataStructLike;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PartitionUtil;

/**
 * The README's quick start: generates shop events with a Flink job on a local MiniCluster, writes
 * them into a partitioned Iceberg table under {@code ./warehouse} through the connector's RowData
 * writers, and reads the table back through its RowData readers.
 *
 * <p>Arguments: {@code [warehouse-dir] [event-count]}. The Flink web UI is on http://127.0.0.1:8081
 * while the job runs (a free port is used when 8081 is taken).
 *
 * <p>This is the foundation-stage quick start: once the sink and source land it writes through
 * {@code IcebergSink} and reads through {@code IcebergSource}.
 */
public final class QuickStart {

    static final TableIdentifier TABLE = TableIdentifier.of("quickstart", "events");
    private static final long TARGET_FILE_SIZE = 128L * 1024 * 1024;

    private QuickStart() {}

    public static void main(String[] args) throws Exception {
        Path warehouse = Paths.get(args.length > 0 ? args[0] : "warehouse").toAbsolutePath();
        long count = args.length > 1 ? Long.parseLong(args[1]) : 10_000L;
        run(warehouse, count, System.out);
    }

    /** Runs the example and returns the table it wrote. */
    static Table run(Path warehouse, long count, PrintStream out) throws Exception {
        CatalogLoader catalogLoader =
                CatalogLoader.hadoop(
                        "quickstart",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()));
        Catalog catalog = catalogLoader.loadCatalog();
        Table table = createOrLoad(catalog);
        out.printf("Table %s at %s%n", TABLE, table.location());

        List<RowData> events = generate(count);
        out.printf("Generated %d events with a Flink job%n", events.size());

        int files = append(table, events);
        table.refresh();
        out.printf(
                "Committed snapshot %d with %d data files%n",
                table.currentSnapshot().snapshotId(), files);

        printSummary(table, out);
        return table;
    }

    private static Table createOrLoad(Catalog catalog) {
        if (catalog instanceof SupportsNamespaces) {
            SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
            Namespace namespace = TABLE.namespace();
            if (!namespaces.namespaceExists(namespace)) {
                namespaces.createNamespace(namespace);
            }
        }
        return catalog.tableExists(TABLE)
                ? catalog.loadTable(TABLE)
                : catalog.createTable(
                        TABLE,
                        GeneratedEvents.SCHEMA,
                        GeneratedEvents.SPEC,
                        Map.of("format-version", "2"));
    }

    private static List<RowData> generate(long count) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "8081-8099");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        env.setParallelism(2);
        DataGeneratorSource<RowData> source =
                new DataGeneratorSource<>(
                        new GeneratedEvents(), count, TypeInformation.of(RowData.class));
        List<RowData> events = new ArrayList<>();
        try (CloseableIterator<RowData> rows =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "events")
                        .executeAndCollect("quickstart-generate")) {
            rows.forEachRemaining(events::add);
        }
        return events;
    }

    private static int append(Table table, List<RowData> events) throws Exception {
        RowType rowType = FlinkSchemaUtil.convert(table.schema());
        RowDataFileWriterFactory writers =
                RowDataFileWriterFactory.builderFor(table)
                        .dataFileFormat(FileFormat.PARQUET)
                        .build();
        OutputFileFactory files = OutputFileFactory.builderFor(table, 0, 1L).build();
        PartitionKey key = new PartitionKey(table.spec(), table.schema());
        RowDataStructLike view = new RowDataStructLike(table.schema().asStruct(), rowType);

        FanoutDataWriter<RowData> writer =
                new FanoutDataWriter<>(writers, files, table.io(), TARGET_FILE_SIZE);
        try (writer) {
            for (RowData event : events) {
                key.partition(view.wrap(event));
                writer.write(event, table.spec(), key);
            }
        }
        DataWriteResult result = writer.result();
        AppendFiles append = table.newAppend();
        result.dataFiles().forEach(append::appendFile);
        append.commit();
        return result.dataFiles().size();
    }

    private static void printSummary(Table table, PrintStream out) throws Exception {
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, BigDecimal> totals = new TreeMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                Map<Integer, ?> constants =
                        PartitionUtil.constantsMap(task, RowDataConstants::convert);
                try (CloseableIterable<RowData> rows =
                        RowDataFileReaders.readBuilder(
                                        task.file().format(), table.io().newInputFile(task.file()))
                                .project(table.schema())
                                .idToConstant(constants)
                                .build()) {
                    for (RowData row : rows) {
                        String category = row.getString(2).toString();
                        counts.computeIfAbsent(category, c -> new long[1])[0]++;
                        totals.merge(
                                category, row.getDecimal(3, 10, 2).toBigDecimal(), BigDecimal::add);
                    }
                }
            }
        }
        out.println();
        out.println("+----------+--------+-------------+");
        out.println("| category | events | amount      |");
        out.println("+----------+--------+-------------+");
        for (Map.Entry<String, long[]> entry : counts.entrySet()) {
            out.printf(
                    "| %-8s | %6d | %11s |%n",
                    entry.getKey(), entry.getValue()[0], totals.get(entry.getKey()));
        }
        out.println("+----------+--------+-------------+");
    }
}
