package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The README's quick start: a Flink job on a local MiniCluster streams generated shop events into a
 * partitioned Iceberg table under {@code ./warehouse} through {@link IcebergSink}, committing one
 * snapshot per checkpoint, and a second job ({@link BatchRead}'s) reads the table back through
 * {@code IcebergSource} and prints a summary per category.
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
        ExampleTables.createEventsTableIfMissing(catalogLoader, TABLE);
        TableLoader tableLoader = TableLoader.fromCatalog(catalogLoader, TABLE);
        Table table;
        try (TableLoader loader = tableLoader.clone()) {
            table = loader.loadTable();
        }
        out.printf("Table %s at %s%n", TABLE, table.location());

        long before = ExampleTables.rowCount(table);
        ingest(tableLoader, table, count, out);
        table.refresh();
        out.printf(
                "Ingested %d events; the table now holds %d rows in %d snapshots%n",
                ExampleTables.rowCount(table) - before,
                ExampleTables.rowCount(table),
                ExampleTables.snapshotCount(table));

        // The read-back is BatchRead's job, run on the local MiniCluster with the web UI.
        out.println();
        List<CategorySummary> summary =
                BatchRead.collect(
                        BatchRead.summaries(localEnvironment(), tableLoader, table, TABLE),
                        "quickstart-read");
        BatchRead.print(summary, true, out);
        return table;
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
}
