package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.GenericFileWriters;
import dev.icebergflink.testing.Jobs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Schema changes during a streaming read: the running read keeps the projection it was built with
 * and reads the files written after each change by field id (an added column is not emitted, a
 * renamed one keeps its old name, a widened one its old type); a job built again and restored from
 * a savepoint taken before the change emits the new schema and goes on where the savepoint was.
 */
class IcebergSourceSchemaChangeITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final TableIdentifier ID = TableIdentifier.of("db", "t");

    /** The schema the read starts with: {@code id bigint, name string, qty int, score float}. */
    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                    Types.NestedField.optional(3, "qty", Types.IntegerType.get()),
                    Types.NestedField.optional(4, "score", Types.FloatType.get()));

    @TempDir Path dir;
    private Catalog catalog;
    private TableLoader loader;
    private Table table;

    @BeforeEach
    void createTable() {
        CatalogLoader catalogLoader =
                CatalogLoader.hadoop(
                        "hadoop",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", dir.resolve("warehouse").toUri().toString()));
        catalog = catalogLoader.loadCatalog();
        ((org.apache.iceberg.catalog.SupportsNamespaces) catalog)
                .createNamespace(Namespace.of("db"));
        table =
                catalog.createTable(
                        ID,
                        SCHEMA,
                        PartitionSpec.unpartitioned(),
                        Map.of(TableProperties.FORMAT_VERSION, "2"));
        loader = TableLoader.fromCatalog(catalogLoader, ID);
    }

    private static CloseableIterator<RowData> run(IcebergSource<RowData> source) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(SourceITCaseSupport.PARALLELISM);
        return env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg",
                        source.getProducedType())
                .executeAndCollect();
    }

    /**
     * Appends one file of rows, each given as column name and value pairs of the current schema.
     */
    private void append(FileFormat format, List<Map<String, Object>> rows) {
        table.refresh();
        append(format, table.schema(), rows);
    }

    /**
     * Appends one file of rows written with {@code schema} (a writer that has not seen a change).
     */
    private void append(FileFormat format, Schema schema, List<Map<String, Object>> rows) {
        List<Record> records = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            GenericRecord record = GenericRecord.create(schema);
            row.forEach(record::setField);
            records.add(record);
        }
        String path =
                table.locationProvider()
                        .newDataLocation(format.addExtension(UUID.randomUUID().toString()));
        DataWriter<Record> writer =
                GenericFileWriters.data(table, schema, format)
                        .newDataWriter(
                                EncryptedFiles.plainAsEncryptedOutput(
                                        table.io().newOutputFile(path)),
                                table.spec(),
                                null);
        try (writer) {
            for (Record record : records) {
                writer.write(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        table.newAppend().appendFile(writer.toDataFile()).commit();
    }

    private static Map<String, Object> row(Object... keysAndValues) {
        Map<String, Object> row = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            row.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return row;
    }

    /** A row of the starting projection as "id|name|qty|score", nulls as "null". */
    private static String text(RowData row) {
        assertThat(row.getArity()).as("fields of the starting projection").isEqualTo(4);
        return row.getLong(0)
                + "|"
                + (row.isNullAt(1) ? "null" : row.getString(1).toString())
                + "|"
                + (row.isNullAt(2) ? "null" : Integer.toString(row.getInt(2)))
                + "|"
                + (row.isNullAt(3) ? "null" : Float.toString(row.getFloat(3)));
    }

    private static List<String> take(CloseableIterator<RowData> it, int count) {
        return SourceITCaseSupport.take(it, count, DEADLINE).stream()
                .map(IcebergSourceSchemaChangeITCase::text)
                .sorted()
                .toList();
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    @Timeout(180)
    void aRunningReadKeepsItsProjectionAcrossSchemaChanges(FileFormat format) throws Exception {
        append(format, List.of(row("id", 1L, "name", "a", "qty", 10, "score", 1.5f)));
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .build();
        try (CloseableIterator<RowData> it = run(source)) {
            assertThat(take(it, 1)).containsExactly("1|a|10|1.5");

            // A new column: not in the running read's output, its rows read on.
            table.updateSchema().addColumn("extra", Types.StringType.get()).commit();
            append(
                    format,
                    List.of(
                            row("id", 2L, "name", "b", "qty", 20, "score", 2.5f, "extra", "x"),
                            row("id", 3L, "name", null, "qty", null, "extra", "y")));
            assertThat(take(it, 2)).containsExactly("2|b|20|2.5", "3|null|null|null");

            // A rename: the column keeps its field id, so the read goes on under its old name.
            table.updateSchema().renameColumn("name", "label").commit();
            append(format, List.of(row("id", 4L, "label", "d", "qty", 40, "score", 4.25f)));
            assertThat(take(it, 1)).containsExactly("4|d|40|4.25");

            // Widenings: int -> bigint and float -> double. New files hold the wider types.
            table.updateSchema()
                    .updateColumn("qty", Types.LongType.get())
                    .updateColumn("score", Types.DoubleType.get())
                    .commit();
            append(
                    format,
                    List.of(
                            row("id", 5L, "label", "e", "qty", 50L, "score", 5.5d),
                            row(
                                    "id",
                                    6L,
                                    "label",
                                    "f",
                                    "qty",
                                    (long) Integer.MIN_VALUE,
                                    "score",
                                    -0.125d)));
            assertThat(take(it, 2))
                    .containsExactly("5|e|50|5.5", "6|f|" + Integer.MIN_VALUE + "|-0.125");
        }
    }

    /** Renders every row it sees as "id|name|..." with as many fields as the row has. */
    private static final class RenderRows implements MapFunction<RowData, RowData> {
        static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();

        @Override
        public RowData map(RowData row) {
            StringBuilder text = new StringBuilder().append(row.getLong(0));
            for (int pos = 1; pos < row.getArity(); pos++) {
                text.append('|').append(row.isNullAt(pos) ? "null" : row.getString(pos));
            }
            SEEN.add(text.toString());
            return row;
        }
    }

    private JobClient startRenderedRead(Configuration conf) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(SourceITCaseSupport.PARALLELISM);
        // built now: the projection is the table's schema at this moment
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .build();
        env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg",
                        source.getProducedType())
                .uid("iceberg-source")
                .map(new RenderRows())
                .uid("render")
                .returns(source.getProducedType())
                .sinkTo(new DiscardingSink<>())
                .uid("discard");
        return env.executeAsync("schema-change-savepoint");
    }

    private static void waitForRendered(String... rows) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!new ArrayList<>(RenderRows.SEEN).containsAll(List.of(rows))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "Rows " + List.of(rows) + " did not all arrive: " + RenderRows.SEEN);
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    /**
     * What a restart from a savepoint does after a column was added: the job's main builds the
     * source again, so its projection is the new schema; the restored state goes on after the last
     * planned snapshot, so no row is read twice, and rows of files written before the change have
     * the new column null.
     */
    @Test
    @Timeout(180)
    void aJobRestoredFromASavepointAfterAnAddedColumnEmitsTheNewSchema() throws Exception {
        table.updateSchema().deleteColumn("qty").deleteColumn("score").commit();
        append(FileFormat.PARQUET, List.of(row("id", 1L, "name", "a")));
        RenderRows.SEEN.clear();
        JobClient first = startRenderedRead(new Configuration());
        waitForRendered("1|a");

        Schema before = table.schema();
        table.updateSchema().addColumn("extra", Types.StringType.get()).commit();
        append(FileFormat.PARQUET, List.of(row("id", 2L, "name", "b", "extra", "x")));
        waitForRendered("2|b"); // the running job: its projection has no 'extra'
        String savepoint =
                first.stopWithSavepoint(
                                false,
                                dir.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        append(FileFormat.PARQUET, List.of(row("id", 3L, "name", "c", "extra", "y")));
        // a file without the new column (written by a writer still on the old schema)
        append(FileFormat.PARQUET, before, List.of(row("id", 4L, "name", "d")));
        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        JobClient second = startRenderedRead(restore);
        try {
            waitForRendered("3|c|y", "4|d|null");
        } finally {
            Jobs.cancelAndWait(second);
        }
        assertThat(new ArrayList<>(RenderRows.SEEN))
                .containsExactlyInAnyOrder("1|a", "2|b", "3|c|y", "4|d|null");
    }
}
