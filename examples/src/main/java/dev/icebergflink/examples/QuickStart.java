package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.source.IcebergSource;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The README's quick start: a Flink job on a local MiniCluster streams generated shop events into a
 * partitioned Iceberg table under {@code ./warehouse} through {@link IcebergSink}, committing one
 * snapshot per checkpoint, and a second job reads the table back through {@link IcebergSource} and
 * prints a summary per category.
 *
 * <p>Arguments: {@code [warehouse-dir] [event-count]}. The Flink web UI is on http://127.0.0.1:8081
 * while the jobs run (the next free port up to 8099 when 8081 is taken).
 */
public final class QuickStart {

    static final TableIdentifier TABLE = TableIdentifier.of("quickstart", "events");
    private static final int EVENTS_PER_SECOND = 5_000;
    private static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(500);

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
        Table table = createOrLoad(catalogLoader.loadCatalog());
        TableLoader tableLoader = TableLoader.fromCatalog(catalogLoader, TABLE);
        out.printf("Table %s at %s%n", TABLE, table.location());

        long before = rowsIn(table);
        ingest(tableLoader, table, count, out);
        table.refresh();
        out.printf(
                "Ingested %d events; the table now holds %d rows in %d snapshots%n",
                rowsIn(table) - before, rowsIn(table), snapshotCount(table));

        printSummary(tableLoader, out);
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

    /** Streams the events into the table with checkpointing, printing each commit as it lands. */
    private static void ingest(TableLoader tableLoader, Table table, long count, PrintStream out)
            throws Exception {
        StreamExecutionEnvironment env = localEnvironment();
        env.enableCheckpointing(CHECKPOINT_INTERVAL.toMillis());
        DataGeneratorSource<RowData> events =
                new DataGeneratorSource<>(
                        new GeneratedEvents(),
                        count,
                        RateLimiterStrategy.perSecond(EVENTS_PER_SECOND),
                        TypeInformation.of(RowData.class));
        env.fromSource(events, WatermarkStrategy.noWatermarks(), "generated events")
                .sinkTo(IcebergSink.forRowData().tableLoader(tableLoader).build())
                .name("iceberg sink");

        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor();
        Long[] lastSeen = {snapshotId(table)};
        progress.scheduleWithFixedDelay(
                () -> reportNewSnapshot(table, lastSeen, out), 200, 200, TimeUnit.MILLISECONDS);
        try {
            env.execute("quickstart-ingest");
        } finally {
            progress.shutdownNow();
            progress.awaitTermination(5, TimeUnit.SECONDS);
        }
        reportNewSnapshot(table, lastSeen, out);
    }

    private static void reportNewSnapshot(Table table, Long[] lastSeen, PrintStream out) {
        table.refresh();
        Snapshot current = table.currentSnapshot();
        if (current != null && !Long.valueOf(current.snapshotId()).equals(lastSeen[0])) {
            lastSeen[0] = current.snapshotId();
            out.printf(
                    "  committed snapshot %d: +%s rows (checkpoint %s), %s rows in total%n",
                    current.snapshotId(),
                    current.summary().getOrDefault("added-records", "0"),
                    current.summary().get("flink.max-committed-checkpoint-id"),
                    current.summary().get("total-records"));
        }
    }

    /**
     * Reads the whole table with a bounded IcebergSource and prints rows and totals per category.
     */
    private static void printSummary(TableLoader tableLoader, PrintStream out) throws Exception {
        StreamExecutionEnvironment env = localEnvironment();
        IcebergSource<RowData> source = IcebergSource.forRowData().tableLoader(tableLoader).build();
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, BigDecimal> totals = new TreeMap<>();
        try (CloseableIterator<RowData> rows =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg source",
                                TypeInformation.of(RowData.class))
                        .executeAndCollect("quickstart-read")) {
            while (rows.hasNext()) {
                RowData row = rows.next();
                String category = row.getString(2).toString();
                counts.computeIfAbsent(category, c -> new long[1])[0]++;
                totals.merge(category, row.getDecimal(3, 10, 2).toBigDecimal(), BigDecimal::add);
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

    private static StreamExecutionEnvironment localEnvironment() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "8081-8099");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        env.setParallelism(2);
        return env;
    }

    private static Long snapshotId(Table table) {
        Snapshot snapshot = table.currentSnapshot();
        return snapshot == null ? null : snapshot.snapshotId();
    }

    private static long rowsIn(Table table) {
        Snapshot snapshot = table.currentSnapshot();
        return snapshot == null
                ? 0
                : Long.parseLong(snapshot.summary().getOrDefault("total-records", "0"));
    }

    private static int snapshotCount(Table table) {
        int count = 0;
        for (Snapshot ignored : table.snapshots()) {
            count++;
        }
        return count;
    }
}
