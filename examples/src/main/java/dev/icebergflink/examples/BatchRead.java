package dev.icebergflink.examples;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.IcebergSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types.DecimalType;
import org.apache.iceberg.types.Types.NestedField;

/**
 * Batch read: a bounded {@link IcebergSource} reads the current snapshot of the events table that
 * {@link StreamingIngestion} writes, and a Flink batch job computes, per category, the number of
 * events and the total amount. It prints the row count and the summary as a table.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}):
 *
 * <ul>
 *   <li>{@code --table <db>.<name>} (default {@code examples.events}); the table needs a {@code
 *       category} string column and a decimal {@code amount} column;
 *   <li>{@code --output <path>}: also write the summary, lines {@code category,events} sorted by
 *       category, to this file (written by the job, so on the TaskManager's machine for a local
 *       path). With it, the job is run with {@code execute()} instead of {@code collect()}, so it
 *       also works where results cannot be collected (a job submitted through the REST API); the
 *       summary printed is then read back from the file.
 * </ul>
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main} after {@link StreamingIngestion} (same {@code --warehouse});
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=BatchRead -DskipTests package} (see
 *       {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.BatchRead examples.jar --warehouse hdfs://namenode:8020/warehouse
 *       --output /tmp/summary.csv}.
 * </ul>
 */
public final class BatchRead {

    private BatchRead() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /** Runs the job and returns the summary it printed, sorted by category. */
    static List<CategorySummary> run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments = ExampleArguments.parse("BatchRead", args, "output");
        TableIdentifier identifier = arguments.table(StreamingIngestion.DEFAULT_TABLE);
        Optional<String> output = arguments.getLocation("output");
        TableLoader tableLoader = TableLoader.fromCatalog(arguments.catalogLoader(), identifier);

        Table table;
        try (TableLoader loader = tableLoader.clone()) {
            table = loader.loadTable();
        }
        Schema projection = projection(table, identifier);
        DecimalType amountType = (DecimalType) projection.findType("amount");
        Snapshot snapshot = table.currentSnapshot();
        out.printf(
                "Reading %s at snapshot %s%n",
                identifier, snapshot == null ? "none (empty table)" : snapshot.snapshotId());

        StreamExecutionEnvironment env = arguments.environment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        IcebergSource<RowData> source =
                IcebergSource.forRowData().tableLoader(tableLoader).project(projection).build();
        DataStream<CategorySummary> summaries =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg source " + identifier,
                                source.getProducedType())
                        .map(new ToSummary(amountType.precision(), amountType.scale()))
                        .returns(TypeInformation.of(CategorySummary.class))
                        .name("to summary")
                        .keyBy(summary -> summary.category, Types.STRING)
                        .reduce(CategorySummary::plus)
                        .name("sum per category");

        List<CategorySummary> result = new ArrayList<>();
        String jobName = "BatchRead of " + identifier;
        if (output.isPresent()) {
            summaries
                    .sinkTo(new SummaryFileSink(output.get()))
                    .setParallelism(1)
                    .name("summary file " + output.get());
            env.execute(jobName);
            out.printf("Wrote the summary to %s%n", output.get());
            try {
                result.addAll(readBack(output.get()));
            } catch (IOException e) {
                // The job wrote the file where its TaskManager runs; this machine may not see it.
                out.printf("(cannot read %s back here: %s)%n", output.get(), e);
            }
        } else {
            try (CloseableIterator<CategorySummary> collected =
                    summaries.executeAndCollect(jobName)) {
                collected.forEachRemaining(result::add);
            }
        }
        result.sort((a, b) -> a.category.compareTo(b.category));
        print(result, output.isEmpty(), out);
        return result;
    }

    private static Schema projection(Table table, TableIdentifier identifier) {
        NestedField category = table.schema().findField("category");
        NestedField amount = table.schema().findField("amount");
        if (category == null
                || category.type().typeId() != Type.TypeID.STRING
                || amount == null
                || amount.type().typeId() != Type.TypeID.DECIMAL) {
            throw new IllegalArgumentException(
                    String.format(
                            "BatchRead summarizes a table with a 'category' string column and an"
                                    + " 'amount' decimal column (the table StreamingIngestion"
                                    + " writes), but %s has the schema %s",
                            identifier, table.schema()));
        }
        return table.schema().select("category", "amount");
    }

    private static void print(
            List<CategorySummary> summaries, boolean withAmount, PrintStream out) {
        long rows = summaries.stream().mapToLong(summary -> summary.events).sum();
        out.printf("Read %d rows in %d categories%n", rows, summaries.size());
        TextTable table =
                withAmount
                        ? TextTable.withColumns("category", "events", "amount")
                        : TextTable.withColumns("category", "events");
        for (CategorySummary summary : summaries) {
            if (withAmount) {
                table.addRow(summary.category, summary.events, summary.amount);
            } else {
                table.addRow(summary.category, summary.events);
            }
        }
        table.print(out, false);
    }

    /** The summary lines of {@code path}, when the client can read the file the job wrote. */
    private static List<CategorySummary> readBack(String path) throws IOException {
        Path file = new Path(path);
        List<CategorySummary> summaries = new ArrayList<>();
        try (FSDataInputStream in = file.getFileSystem().open(file);
                BufferedReader reader =
                        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                int comma = line.lastIndexOf(',');
                summaries.add(
                        new CategorySummary(
                                line.substring(0, comma),
                                Long.parseLong(line.substring(comma + 1)),
                                null));
            }
        }
        return summaries;
    }

    /** One event as a summary of one event. */
    private static final class ToSummary implements MapFunction<RowData, CategorySummary> {

        private static final long serialVersionUID = 1L;
        private final int precision;
        private final int scale;

        ToSummary(int precision, int scale) {
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        public CategorySummary map(RowData row) {
            String category = row.isNullAt(0) ? "(null)" : row.getString(0).toString();
            BigDecimal amount =
                    row.isNullAt(1)
                            ? BigDecimal.ZERO.setScale(scale)
                            : row.getDecimal(1, precision, scale).toBigDecimal();
            return new CategorySummary(category, 1, amount);
        }
    }
}
