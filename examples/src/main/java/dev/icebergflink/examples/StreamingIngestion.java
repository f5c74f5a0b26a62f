package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Streaming ingestion: a Flink job writes generated shop events ({@link GeneratedEvents}) into an
 * Iceberg table partitioned by {@code category} through {@link IcebergSink}, exactly once, with one
 * Iceberg snapshot per completed checkpoint. The table (and its database) is created when it is
 * missing.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}):
 *
 * <ul>
 *   <li>{@code --table <db>.<name>} (default {@code examples.events});
 *   <li>{@code --events N}: stop after N events, so the job finishes after its final commit
 *       (default: run until cancelled);
 *   <li>{@code --events-per-second R}: throttle the generator (default 1000; 0 means as fast as
 *       possible);
 *   <li>{@code --checkpoint-interval D}: how often a snapshot is committed (default {@code 10s});
 *   <li>{@code --write-format parquet|orc|avro} (default: the table's {@code
 *       write.format.default}).
 * </ul>
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main} with e.g. {@code --events 10000 --checkpoint-interval 1s} (a
 *       local MiniCluster, table under {@code ./warehouse});
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=StreamingIngestion
 *       -Dexample.args="--events 10000" -DskipTests package} (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.StreamingIngestion examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse --events 100000}.
 * </ul>
 */
public final class StreamingIngestion {

    static final String DEFAULT_TABLE = "examples.events";

    private StreamingIngestion() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /** Runs the job to its end (with {@code --events}) or until it is cancelled. */
    static void run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments =
                ExampleArguments.parse(
                        "StreamingIngestion",
                        args,
                        "events",
                        "events-per-second",
                        "checkpoint-interval",
                        "write-format");
        long events = arguments.getLong("events", Long.MAX_VALUE);
        long perSecond = arguments.getLong("events-per-second", 1_000);
        Duration checkpointInterval =
                arguments.getDuration("checkpoint-interval", Duration.ofSeconds(10));
        if (events < 0 || perSecond < 0) {
            throw new IllegalArgumentException(
                    "StreamingIngestion: '--events' and '--events-per-second' must not be"
                            + " negative, but were "
                            + events
                            + " and "
                            + perSecond);
        }

        TableIdentifier identifier = arguments.table(DEFAULT_TABLE);
        CatalogLoader catalogLoader = arguments.catalogLoader();
        boolean created =
                ExampleTables.createIfMissing(
                        catalogLoader,
                        identifier,
                        GeneratedEvents.SCHEMA,
                        GeneratedEvents.SPEC,
                        Map.of("format-version", "2"));
        out.printf(
                "%s table %s in catalog %s%n",
                created ? "Created" : "Writing to existing", identifier, catalogLoader.name());

        StreamExecutionEnvironment env = arguments.environment();
        env.enableCheckpointing(checkpointInterval.toMillis());
        DataGeneratorSource<RowData> generator =
                new DataGeneratorSource<>(
                        new GeneratedEvents(),
                        events,
                        perSecond == 0
                                ? RateLimiterStrategy.noOp()
                                : RateLimiterStrategy.perSecond(perSecond),
                        TypeInformation.of(RowData.class));
        IcebergSink.Builder sink =
                IcebergSink.forRowData()
                        .tableLoader(TableLoader.fromCatalog(catalogLoader, identifier));
        arguments.get("write-format").ifPresent(format -> sink.set("write-format", format));
        env.fromSource(generator, WatermarkStrategy.noWatermarks(), "generated events")
                .uid("generated-events")
                .sinkTo(sink.build())
                .name("iceberg sink " + identifier);

        out.printf(
                "Streaming %s events (%s per second) with a checkpoint every %s%n",
                events == Long.MAX_VALUE ? "unbounded" : String.valueOf(events),
                perSecond == 0 ? "unthrottled" : String.valueOf(perSecond),
                checkpointInterval);
        env.execute("StreamingIngestion into " + identifier);

        try (TableLoader loader = TableLoader.fromCatalog(catalogLoader, identifier)) {
            Table table = loader.loadTable();
            Snapshot current = table.currentSnapshot();
            out.printf(
                    "Done: %s holds %d rows in %d data files, %d snapshots; current snapshot %s"
                            + " (checkpoint %s)%n",
                    identifier,
                    ExampleTables.rowCount(table),
                    ExampleTables.dataFileCount(table),
                    ExampleTables.snapshotCount(table),
                    current == null ? "none" : current.snapshotId(),
                    current == null
                            ? "none"
                            : current.summary().get("flink.max-committed-checkpoint-id"));
        }
    }
}
