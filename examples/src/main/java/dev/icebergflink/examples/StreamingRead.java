package dev.icebergflink.examples;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.IcebergSource;
import dev.icebergflink.source.StreamingStartingStrategy;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Streaming read: an unbounded {@link IcebergSource} follows a table, checking for new snapshots
 * every {@code --monitor-interval}, and prints every row as it arrives. Run {@link
 * StreamingIngestion} (or any other writer) against the same table at the same time to watch the
 * rows of each commit appear.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}):
 *
 * <ul>
 *   <li>{@code --table <db>.<name>} (default {@code examples.events});
 *   <li>{@code --monitor-interval D}: how often the source looks for new snapshots (default {@code
 *       1s});
 *   <li>{@code --starting-strategy S}: where reading starts, one of {@link
 *       StreamingStartingStrategy} (default {@code TABLE_SCAN_THEN_INCREMENTAL}: the current table,
 *       then every later append; {@code INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE} reads only new
 *       appends);
 *   <li>{@code --max-rows N}: stop after N rows (default: run until cancelled).
 * </ul>
 *
 * The rows are collected to the client ({@code executeAndCollect}) and printed there, so on a
 * cluster submit it with the {@code flink run} command line, which stays attached to the job.
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main}, then run {@link StreamingIngestion} with the same {@code
 *       --warehouse};
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=StreamingRead
 *       -Dexample.args="--max-rows 100" -DskipTests package} (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.StreamingRead examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse --starting-strategy
 *       INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE}.
 * </ul>
 */
public final class StreamingRead {

    private StreamingRead() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /** Prints rows as they arrive; returns the number printed once {@code --max-rows} is hit. */
    static long run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments =
                ExampleArguments.parse(
                        "StreamingRead", args, "monitor-interval", "starting-strategy", "max-rows");
        TableIdentifier identifier = arguments.table(StreamingIngestion.DEFAULT_TABLE);
        Duration monitorInterval = arguments.getDuration("monitor-interval", Duration.ofSeconds(1));
        StreamingStartingStrategy strategy =
                startingStrategy(
                        arguments.get(
                                "starting-strategy",
                                StreamingStartingStrategy.TABLE_SCAN_THEN_INCREMENTAL.name()));
        long maxRows = arguments.getLong("max-rows", Long.MAX_VALUE);

        TableLoader tableLoader = TableLoader.fromCatalog(arguments.catalogLoader(), identifier);
        Table table;
        try (TableLoader loader = tableLoader.clone()) {
            table = loader.loadTable();
        }
        RowType rowType = FlinkSchemaUtil.convert(table.schema());
        RowData.FieldGetter[] getters = new RowData.FieldGetter[rowType.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
        }

        StreamExecutionEnvironment env = arguments.environment();
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(tableLoader)
                        .streaming(true)
                        .monitorInterval(monitorInterval)
                        .streamingStartingStrategy(strategy)
                        .build();
        out.printf(
                "Following %s (%s, new snapshots every %s); columns %s%n",
                identifier, strategy, monitorInterval, rowType.getFieldNames());

        long printed = 0;
        try (CloseableIterator<RowData> rows =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg streaming source " + identifier,
                                source.getProducedType())
                        .executeAndCollect("StreamingRead of " + identifier)) {
            while (printed < maxRows && rows.hasNext()) {
                out.println(format(rows.next(), getters));
                printed++;
            }
        }
        out.printf("Stopped after %d rows%n", printed);
        return printed;
    }

    /** A row as the SQL client prints changelog rows: {@code +I[1, books, ...]}. */
    static String format(RowData row, RowData.FieldGetter[] getters) {
        List<String> values = new ArrayList<>(getters.length);
        for (RowData.FieldGetter getter : getters) {
            values.add(String.valueOf(getter.getFieldOrNull(row)));
        }
        return row.getRowKind().shortString() + "[" + String.join(", ", values) + "]";
    }

    private static StreamingStartingStrategy startingStrategy(String value) {
        try {
            return StreamingStartingStrategy.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "StreamingRead: argument '--starting-strategy' must be one of %s, but"
                                    + " was '%s'",
                            Arrays.toString(StreamingStartingStrategy.values()), value),
                    e);
        }
    }
}
