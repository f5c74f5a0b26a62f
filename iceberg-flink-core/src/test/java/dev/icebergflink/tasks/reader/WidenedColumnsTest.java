package dev.icebergflink.tasks.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reader built before columns were widened reads files written before and after the widening in
 * its own types (top-level, struct field, list element and map value; every file format), and fails
 * without restarts, naming column and file, on a value its type cannot hold.
 */
class WidenedColumnsTest {

    /** The schema the table is created with (its field ids are assigned anew). */
    private static final Schema CREATED =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "qty", Types.IntegerType.get()),
                    Types.NestedField.optional(3, "score", Types.FloatType.get()),
                    Types.NestedField.optional(4, "amount", Types.DecimalType.of(9, 2)),
                    Types.NestedField.optional(
                            5,
                            "s",
                            Types.StructType.of(
                                    Types.NestedField.optional(6, "x", Types.IntegerType.get()))),
                    Types.NestedField.optional(
                            7, "l", Types.ListType.ofOptional(8, Types.IntegerType.get())),
                    Types.NestedField.optional(
                            9,
                            "m",
                            Types.MapType.ofOptional(
                                    10, 11, Types.StringType.get(), Types.FloatType.get())));

    @TempDir Path dir;
    private Table table;

    /** The table's schema before the widening: the one the reader is built with. */
    private Schema narrow;

    @BeforeEach
    void createTable() {
        table =
                new HadoopTables(new Configuration())
                        .create(
                                CREATED,
                                PartitionSpec.unpartitioned(),
                                Map.of(TableProperties.FORMAT_VERSION, "2"),
                                dir.resolve("t").toString());
        narrow = table.schema();
    }

    private void widenEverything() {
        table.updateSchema()
                .updateColumn("qty", Types.LongType.get())
                .updateColumn("score", Types.DoubleType.get())
                .updateColumn("amount", Types.DecimalType.of(12, 2))
                .updateColumn("s.x", Types.LongType.get())
                .updateColumn("l.element", Types.LongType.get())
                .updateColumn("m.value", Types.DoubleType.get())
                .commit();
    }

    private Record record(
            long id, Object qty, Object score, String amount, Object x, List<?> l, Map<?, ?> m) {
        Schema schema = table.schema();
        GenericRecord record = GenericRecord.create(schema);
        record.setField("id", id);
        record.setField("qty", qty);
        record.setField("score", score);
        record.setField("amount", amount == null ? null : new BigDecimal(amount));
        GenericRecord struct = GenericRecord.create(schema.findField("s").type().asStructType());
        struct.setField("x", x);
        record.setField("s", struct);
        record.setField("l", l);
        record.setField("m", m);
        return record;
    }

    private DataFile append(FileFormat format, Record... records) {
        String path =
                table.locationProvider()
                        .newDataLocation(format.addExtension(UUID.randomUUID().toString()));
        DataWriter<Record> writer =
                GenericFileWriters.data(table, format)
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
        return writer.toDataFile();
    }

    private RowDataFileTaskReader narrowReader() {
        return new RowDataFileTaskReader(
                narrow, narrow, null, false, table.io(), table.encryption());
    }

    private List<FileScanTask> tasks(Expression filter) {
        List<FileScanTask> tasks = new ArrayList<>();
        try (CloseableIterable<FileScanTask> planned = table.newScan().filter(filter).planFiles()) {
            planned.forEach(tasks::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tasks;
    }

    private static List<RowData> read(RowDataFileTaskReader reader, List<FileScanTask> tasks) {
        List<RowData> rows = new ArrayList<>();
        for (FileScanTask task : tasks) {
            try (CloseableIterable<RowData> taskRows = reader.open(task)) {
                taskRows.forEach(rows::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }

    /** A row of the narrow schema, read through its narrow getters. */
    private static String text(RowData row) {
        assertThat(row.getArity()).isEqualTo(7);
        StringBuilder out = new StringBuilder().append(row.getLong(0));
        out.append('|').append(row.isNullAt(1) ? "null" : row.getInt(1));
        out.append('|').append(row.isNullAt(2) ? "null" : row.getFloat(2));
        out.append('|').append(row.isNullAt(3) ? "null" : row.getDecimal(3, 9, 2));
        out.append('|');
        RowData struct = row.getRow(4, 1);
        out.append('(').append(struct.isNullAt(0) ? "null" : struct.getInt(0)).append(')');
        out.append('|');
        ArrayData list = row.getArray(5);
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            items.add(list.isNullAt(i) ? null : list.getInt(i));
        }
        out.append(items);
        out.append('|');
        MapData map = row.getMap(6);
        Map<String, Object> entries = new LinkedHashMap<>();
        for (int i = 0; i < map.size(); i++) {
            entries.put(
                    map.keyArray().getString(i).toString(),
                    map.valueArray().isNullAt(i) ? null : map.valueArray().getFloat(i));
        }
        return out.append(entries).toString();
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void readsFilesBeforeAndAfterAWideningInTheProjectedTypes(FileFormat format) {
        append(format, record(1, 7, 1.5f, "12.34", 3, List.of(1, 2), Map.of("a", 0.5f)));
        widenEverything();
        append(
                format,
                record(
                        2,
                        (long) Integer.MAX_VALUE,
                        -2.25d,
                        "9999999.99",
                        (long) Integer.MIN_VALUE,
                        Arrays.asList(3L, null),
                        Map.of("b", 0.1d)),
                record(3, null, null, null, null, List.of(), Map.of()));

        List<RowData> rows = read(narrowReader(), tasks(Expressions.alwaysTrue()));

        assertThat(rows).allMatch(row -> row instanceof BinaryRowData);
        assertThat(rows.stream().map(WidenedColumnsTest::text).sorted())
                .containsExactly(
                        "1|7|1.5|12.34|(3)|[1, 2]|{a=0.5}",
                        "2|2147483647|-2.25|9999999.99|(-2147483648)|[3, null]|{b=0.1}",
                        "3|null|null|null|(null)|[]|{}");
    }

    @Test
    void filtersOnAWidenedColumnCompareTheWideValues() {
        append(FileFormat.PARQUET, record(1, 7, 1.5f, "1.00", 1, List.of(), Map.of()));
        widenEverything();
        append(
                FileFormat.PARQUET,
                record(2, 8L, 1.0d, "1.00", 1L, List.of(), Map.of()),
                record(3, 1L, 1.0d, "1.00", 1L, List.of(), Map.of()));
        // only qty is filtered and only id projected: qty is read for the filter alone
        Schema idOnly = narrow.select("id");
        RowDataFileTaskReader reader =
                new RowDataFileTaskReader(
                        narrow, idOnly, null, false, table.io(), table.encryption());
        List<RowData> rows = read(reader, tasks(Expressions.greaterThan("qty", 5)));
        assertThat(rows.stream().map(row -> row.getLong(0)).sorted()).containsExactly(1L, 2L);
        assertThat(rows).allMatch(row -> row.getArity() == 1);
    }

    @Test
    void aValueBeyondTheProjectedTypeFailsWithoutRestartsNamingColumnAndFile() {
        widenEverything();
        DataFile tooBig =
                append(
                        FileFormat.PARQUET,
                        record(1, 1L + Integer.MAX_VALUE, 0d, "0.00", 0L, List.of(), Map.of()));
        assertThatThrownBy(() -> read(narrowReader(), tasks(Expressions.alwaysTrue())))
                .isInstanceOf(SuppressRestartsException.class)
                .rootCause()
                .hasMessageContaining("Column 'qty'")
                .hasMessageContaining(tooBig.location())
                .hasMessageContaining("2147483648")
                .hasMessageContaining("widened to long");
    }

    @Test
    void nestedValuesBeyondTheProjectedTypeFailToo() {
        widenEverything();
        append(FileFormat.ORC, record(1, 0L, 0d, "0.00", 1L << 40, List.of(), Map.of()));
        assertThatThrownBy(() -> read(narrowReader(), tasks(Expressions.alwaysTrue())))
                .rootCause()
                .hasMessageContaining("Column 's.x'");
        table.newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).commit();
        append(FileFormat.AVRO, record(2, 0L, 1e300, "0.00", 0L, List.of(), Map.of()));
        assertThatThrownBy(() -> read(narrowReader(), tasks(Expressions.alwaysTrue())))
                .rootCause()
                .hasMessageContaining("Column 'score'");
        table.newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).commit();
        append(FileFormat.PARQUET, record(3, 0L, 0d, "12345678.90", 0L, List.of(), Map.of()));
        assertThatThrownBy(() -> read(narrowReader(), tasks(Expressions.alwaysTrue())))
                .rootCause()
                .hasMessageContaining("Column 'amount'");
    }

    @Test
    void projectionsWithoutWidenedColumnsAreReadAsThey() {
        assertThat(WidenedColumns.widen(narrow, narrow)).isSameAs(narrow);
        assertThat(WidenedColumns.widen(narrow, null)).isSameAs(narrow);
        widenEverything();
        // a projection already wider than the task's schema (built after the change, reading
        // older tasks) stays as it is: readers promote by themselves
        assertThat(WidenedColumns.widen(table.schema(), narrow)).isSameAs(table.schema());
        Schema widened = WidenedColumns.widen(narrow, table.schema());
        assertThat(widened.asStruct()).isEqualTo(table.schema().asStruct());
    }
}
