package dev.icebergflink.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.row.RowDataConstants;
import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.RowDataConverter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Writes Flink rows into a real (file-system) Iceberg table through {@link
 * RowDataFileWriterFactory}, commits them, and reads them back both through Iceberg's generic
 * reader and through {@link RowDataFileReaders}, for every format.
 */
class RowDataFileWriterFactoryTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "category", Types.StringType.get()),
                    Types.NestedField.optional(3, "price", Types.DecimalType.of(12, 3)),
                    Types.NestedField.optional(4, "ts", Types.TimestampType.withZone()),
                    Types.NestedField.optional(
                            5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())));

    private static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("category").bucket("id", 4).build();

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void writesPartitionedDataFilesThatIcebergAndOurReadersReadBack(FileFormat format)
            throws Exception {
        Table table = createTable(format, 2);
        List<RowData> rows = rowsWithUniqueIds(300, 42L);

        List<DataFile> files = writeData(table, rows);
        var append = table.newAppend();
        files.forEach(append::appendFile);
        append.commit();

        assertThat(files).allSatisfy(f -> assertThat(f.format()).isEqualTo(format));
        assertThat(files.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(300);
        if (format != FileFormat.AVRO) { // Iceberg keeps no column metrics for Avro files
            assertThat(files).allSatisfy(f -> assertThat(f.lowerBounds()).containsKey(1));
        }

        RowDataAssert.assertRecordsMatchRows(
                SCHEMA, sortedById(readGeneric(table)), sortedRows(rows));
        RowDataAssert.assertRowsEqual(SCHEMA, sortedRows(rows), sortedRows(readOurs(table)));
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void writesEqualityDeletesThatIcebergApplies(FileFormat format) throws Exception {
        Table table = createTable(format, 2);
        List<RowData> rows = rowsWithUniqueIds(100, 7L);
        List<DataFile> files = writeData(table, rows);
        var append = table.newAppend();
        files.forEach(append::appendFile);
        append.commit();

        Schema keySchema = SCHEMA.select("id", "category");
        RowDataFileWriterFactory factory =
                RowDataFileWriterFactory.builderFor(table)
                        .deleteFileFormat(format)
                        .equalityFieldIds(1, 2)
                        .equalityDeleteRowSchema(keySchema)
                        .build();
        OutputFileFactory outputs = OutputFileFactory.builderFor(table, 1, 2L).build();
        RowType rowType = FlinkSchemaUtil.convert(SCHEMA);
        PartitionKey partition = new PartitionKey(SPEC, SCHEMA);
        RowDataStructLike view = new RowDataStructLike(SCHEMA.asStruct(), rowType);

        // Delete every third row, one delete file per partition of the deleted rows.
        List<RowData> deleted = new ArrayList<>();
        Map<PartitionKey, List<RowData>> byPartition = new java.util.LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i += 3) {
            partition.partition(view.wrap(rows.get(i)));
            byPartition.computeIfAbsent(partition.copy(), k -> new ArrayList<>()).add(rows.get(i));
            deleted.add(rows.get(i));
        }
        var rowDelta = table.newRowDelta();
        for (Map.Entry<PartitionKey, List<RowData>> entry : byPartition.entrySet()) {
            EqualityDeleteWriter<RowData> writer =
                    factory.newEqualityDeleteWriter(
                            outputs.newOutputFile(SPEC, entry.getKey()), SPEC, entry.getKey());
            try (writer) {
                for (RowData row : entry.getValue()) {
                    writer.write(
                            GenericRowData.of(
                                    row.getLong(0),
                                    row.isNullAt(1)
                                            ? null
                                            : StringData.fromString(row.getString(1).toString())));
                }
            }
            DeleteFile deleteFile = writer.toDeleteFile();
            assertThat(deleteFile.equalityFieldIds()).containsExactly(1, 2);
            rowDelta.addDeletes(deleteFile);
        }
        rowDelta.commit();

        List<RowData> remaining = new ArrayList<>(rows);
        remaining.removeAll(deleted);
        RowDataAssert.assertRecordsMatchRows(
                SCHEMA, sortedById(readGeneric(table)), sortedRows(remaining));
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void equalityDeleteWritersRejectANullInARequiredKeyColumn(FileFormat format) throws Exception {
        Table table = createTable(format, 2);
        RowDataFileWriterFactory factory =
                RowDataFileWriterFactory.builderFor(table)
                        .deleteFileFormat(format)
                        .equalityFieldIds(1)
                        .equalityDeleteRowSchema(SCHEMA.select("id"))
                        .equalityDeleteFlinkType(
                                RowType.of(new org.apache.flink.table.types.logical.BigIntType()))
                        .build();
        OutputFileFactory outputs = OutputFileFactory.builderFor(table, 1, 3L).build();
        PartitionKey partition = new PartitionKey(SPEC, SCHEMA);
        partition.set(0, "books");
        partition.set(1, 0);
        EqualityDeleteWriter<RowData> writer =
                factory.newEqualityDeleteWriter(
                        outputs.newOutputFile(SPEC, partition), SPEC, partition);
        GenericRowData nullKey = new GenericRowData(1);
        assertThatThrownBy(
                        () -> {
                            try (writer) {
                                writer.write(nullKey);
                            }
                        })
                .satisfies(
                        e ->
                                assertThat(
                                                org.apache.flink.util.ExceptionUtils.findThrowable(
                                                        e, IllegalArgumentException.class))
                                        .hasValueSatisfying(
                                                cause ->
                                                        assertThat(cause)
                                                                .hasMessageContaining("column 'id'")
                                                                .hasMessageContaining(
                                                                        "required (NOT NULL)")));
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void takesTheFormatFromTheTableProperty(FileFormat format) throws Exception {
        Table table = createTable(format, 2);

        List<DataFile> files = writeData(table, rowsWithUniqueIds(10, 1L));

        assertThat(files).allSatisfy(f -> assertThat(f.format()).isEqualTo(format));
    }

    @org.junit.jupiter.api.Test
    void rejectsUnsupportedFormatsNamingTheAllowedOnes() {
        Table table = createTable(FileFormat.PARQUET, 2);

        assertThatThrownBy(
                        () ->
                                RowDataFileWriterFactory.builderFor(table)
                                        .dataFileFormat(FileFormat.PUFFIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PUFFIN")
                .hasMessageContaining("PARQUET");
        table.updateProperties().set(TableProperties.DEFAULT_FILE_FORMAT, "csv").commit();
        assertThatThrownBy(() -> RowDataFileWriterFactory.builderFor(table))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'csv'")
                .hasMessageContaining(TableProperties.DEFAULT_FILE_FORMAT);
    }

    private Table createTable(FileFormat format, int formatVersion) {
        return new HadoopTables(new Configuration())
                .create(
                        SCHEMA,
                        SPEC,
                        Map.of(
                                TableProperties.DEFAULT_FILE_FORMAT,
                                format.name(),
                                TableProperties.FORMAT_VERSION,
                                String.valueOf(formatVersion)),
                        dir.resolve("table").toUri().toString());
    }

    private static List<DataFile> writeData(Table table, List<RowData> rows) throws Exception {
        RowDataFileWriterFactory factory = RowDataFileWriterFactory.builderFor(table).build();
        OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 1L).build();
        PartitionKey partition = new PartitionKey(table.spec(), table.schema());
        RowDataStructLike view =
                new RowDataStructLike(
                        table.schema().asStruct(), FlinkSchemaUtil.convert(table.schema()));
        FanoutDataWriter<RowData> writer =
                new FanoutDataWriter<>(factory, outputs, table.io(), 1L << 20);
        try (writer) {
            for (RowData row : rows) {
                partition.partition(view.wrap(row));
                writer.write(row, table.spec(), partition);
            }
        }
        DataWriteResult result = writer.result();
        return result.dataFiles();
    }

    private static List<Record> readGeneric(Table table) throws Exception {
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            List<Record> copies = new ArrayList<>();
            records.forEach(r -> copies.add(r.copy()));
            return copies;
        }
    }

    private static List<RowData> readOurs(Table table) throws Exception {
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                try (CloseableIterable<RowData> read =
                        RowDataFileReaders.readBuilder(
                                        task.file().format(), table.io().newInputFile(task.file()))
                                .project(table.schema())
                                .idToConstant(
                                        PartitionUtil.constantsMap(task, RowDataConstants::convert))
                                .build()) {
                    // Copy through a Record so reused containers cannot alias earlier rows.
                    read.forEach(
                            r ->
                                    rows.add(
                                            RowDataConverter.fromRecord(
                                                    SCHEMA, RowDataConverter.toRecord(SCHEMA, r))));
                }
            }
        }
        return rows;
    }

    private static List<Record> sortedById(List<Record> records) {
        return records.stream()
                .sorted(Comparator.comparingLong(r -> (Long) r.getField("id")))
                .collect(Collectors.toList());
    }

    private static List<RowData> sortedRows(List<RowData> rows) {
        return rows.stream()
                .sorted(Comparator.comparingLong(r -> r.getLong(0)))
                .collect(Collectors.toList());
    }

    /**
     * Random rows whose ids are 0..count-1 (so that rows can be matched and deleted by key), in a
     * handful of categories (so that there are a few partitions, not one per row), with timestamps
     * every format stores exactly (ORC cannot keep fractions within the second before the epoch;
     * the format tests cover that case).
     */
    private static List<RowData> rowsWithUniqueIds(int count, long seed) {
        List<RowData> rows = RandomRowData.generate(SCHEMA, count, seed);
        String[] categories = {"a", "b", "c"};
        for (int i = 0; i < rows.size(); i++) {
            GenericRowData row = (GenericRowData) rows.get(i);
            row.setField(0, (long) i);
            row.setField(
                    1,
                    i % 4 == 3 ? null : StringData.fromString(categories[i % categories.length]));
            if (!row.isNullAt(3)) {
                row.setField(
                        3,
                        TimestampData.fromEpochMillis(
                                1_700_000_000_000L + i * 1_001L, (i % 1000) * 1000));
            }
        }
        return rows;
    }
}
