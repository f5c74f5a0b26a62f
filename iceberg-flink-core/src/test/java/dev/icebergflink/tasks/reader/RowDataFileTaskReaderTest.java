package dev.icebergflink.tasks.reader;

import static dev.icebergflink.tasks.reader.TaskTestTables.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RowDataFileTaskReaderTest {

    @TempDir Path dir;

    private List<String> read(Table table, Schema projected, Expression filter) {
        return read(table, projected, filter, true);
    }

    private List<String> read(
            Table table, Schema projected, Expression filter, boolean caseSensitive) {
        List<FileScanTask> tasks = TaskTestTables.planFiles(table, filter, caseSensitive);
        RowDataFileTaskReader reader = TaskTestTables.reader(table, projected, caseSensitive);
        List<RowData> rows = TaskTestTables.readAll(reader, tasks);
        return TaskTestTables.formatAll(projected, rows);
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void readsEveryColumnAndProjectsPartitionConstants(FileFormat format) {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, format, TaskTestTables.records(0, 3, "a"));
        TaskTestTables.append(table, format, TaskTestTables.records(3, 5, "b"));

        assertThat(read(table, SCHEMA, null))
                .containsExactlyInAnyOrder(
                        "0|d0|a|0", "1|d1|a|1000", "2|d2|a|2000", "3|d3|b|3000", "4|d4|b|4000");
        // a reordered projection: the partition constant first
        Schema projected = new Schema(SCHEMA.findField("category"), SCHEMA.findField("id"));
        assertThat(read(table, projected, null))
                .containsExactlyInAnyOrder("a|0", "a|1", "a|2", "b|3", "b|4");
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void appliesPositionDeletesWithoutReturningThePositionColumn(FileFormat format) {
        Table table = TaskTestTables.create(dir, 2);
        DataFile data = TaskTestTables.append(table, format, TaskTestTables.records(0, 6, "a"));
        TaskTestTables.commitDeletes(
                table, TaskTestTables.writePositionDeletes(table, format, data, 1, 3, 5));

        assertThat(read(table, SCHEMA.select("data"), null)).containsExactly("d0", "d2", "d4");
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void appliesEqualityDeletesOnAColumnOutsideTheProjection(FileFormat format) {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, format, TaskTestTables.records(0, 5, "a"));
        TaskTestTables.append(table, format, TaskTestTables.records(5, 8, "b"));
        TaskTestTables.commitDeletes(
                table,
                TaskTestTables.writeIdEqualityDeletes(table, format, "a", 2, 3),
                // ids of partition b in a delete file of partition a do not apply there
                TaskTestTables.writeIdEqualityDeletes(table, format, "a", 6));

        assertThat(read(table, SCHEMA.select("data"), null))
                .containsExactlyInAnyOrder("d0", "d1", "d4", "d5", "d6", "d7");
    }

    @Test
    void appliesDeletionVectorsOfAFormatV3Table() {
        Table table = TaskTestTables.create(dir, 3);
        DataFile first =
                TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 5, "a"));
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(5, 7, "a"));
        DeleteFile dv = TaskTestTables.writeDeletionVector(table, first, 0, 4);
        assertThat(dv.format()).isEqualTo(FileFormat.PUFFIN);
        TaskTestTables.commitDeletes(table, dv);

        assertThat(read(table, SCHEMA.select("id", "data"), null))
                .containsExactlyInAnyOrder("1|d1", "2|d2", "3|d3", "5|d5", "6|d6");
    }

    @Test
    void appliesResidualFiltersOnColumnsOutsideTheProjectionAfterDeletes() {
        Table table = TaskTestTables.create(dir, 2);
        DataFile data =
                TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 8, "a"));
        TaskTestTables.append(table, FileFormat.ORC, TaskTestTables.records(8, 10, "b"));
        TaskTestTables.commitDeletes(
                table, TaskTestTables.writePositionDeletes(table, FileFormat.PARQUET, data, 4));

        Expression filter =
                Expressions.and(
                        Expressions.greaterThanOrEqual("ts", 2500L),
                        Expressions.notEqual("data", "d6"));
        assertThat(read(table, SCHEMA.select("id"), filter))
                .containsExactlyInAnyOrder("3", "5", "7", "8", "9");
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void returnsBinaryRowsOfTheProjectedWidthAfterReadingFilterAndDeleteColumns(FileFormat format) {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, format, TaskTestTables.records(0, 6, "a"));
        TaskTestTables.commitDeletes(
                table, TaskTestTables.writeIdEqualityDeletes(table, format, "a", 4));

        // "ts" is read only for the filter, "id" only for the deletes; both are dropped again
        Schema projected = SCHEMA.select("data");
        Expression filter = Expressions.greaterThanOrEqual("ts", 2000L);
        List<RowData> rows =
                TaskTestTables.readAll(
                        TaskTestTables.reader(table, projected, true),
                        TaskTestTables.planFiles(table, filter, true));

        assertThat(TaskTestTables.formatAll(projected, rows))
                .containsExactlyInAnyOrder("d2", "d3", "d5");
        assertThat(rows)
                .allSatisfy(
                        row -> {
                            assertThat(row).isInstanceOf(BinaryRowData.class);
                            assertThat(row.getArity()).isEqualTo(1);
                        });
    }

    @Test
    void partitionFiltersLeaveNothingToEvaluateOnRows() {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 3, "a"));
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(3, 5, "b"));

        Expression filter = Expressions.equal("category", "b");
        List<FileScanTask> tasks = TaskTestTables.planFiles(table, filter, true);
        assertThat(tasks)
                .singleElement()
                .satisfies(t -> assertThat(t.residual().op()).isEqualTo(Expression.Operation.TRUE));
        assertThat(read(table, SCHEMA.select("id"), filter)).containsExactlyInAnyOrder("3", "4");
    }

    @Test
    void matchesFilterColumnsCaseInsensitivelyWhenAsked() {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 5, "a"));

        Expression filter = Expressions.lessThan("TS", 2000L);
        assertThat(read(table, SCHEMA.select("data"), filter, false))
                .containsExactlyInAnyOrder("d0", "d1");
    }

    @Test
    void fillsMetadataColumns() {
        Table table = TaskTestTables.create(dir, 2);
        DataFile data =
                TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 3, "a"));
        Schema projected =
                new Schema(
                        SCHEMA.findField("id"),
                        MetadataColumns.FILE_PATH,
                        MetadataColumns.ROW_POSITION,
                        MetadataColumns.SPEC_ID,
                        MetadataColumns.metadataColumn(
                                table, MetadataColumns.PARTITION_COLUMN_NAME));

        String file = data.location();
        assertThat(read(table, projected, null))
                .containsExactlyInAnyOrder(
                        "0|" + file + "|0|0|(a)",
                        "1|" + file + "|1|0|(a)",
                        "2|" + file + "|2|0|(a)");
    }

    @Test
    void marksDeletedRowsWhenTheDeletedColumnIsProjected() {
        Table table = TaskTestTables.create(dir, 2);
        DataFile data =
                TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 3, "a"));
        TaskTestTables.commitDeletes(
                table, TaskTestTables.writePositionDeletes(table, FileFormat.PARQUET, data, 1));

        Schema projected = new Schema(SCHEMA.findField("id"), MetadataColumns.IS_DELETED);
        assertThat(read(table, projected, null))
                .containsExactlyInAnyOrder("0|false", "1|true", "2|false");
    }

    @Test
    void readsFilesWithoutFieldIdsThroughTheNameMapping() throws IOException {
        Table table = TaskTestTables.create(dir, 2);
        NameMapping mapping = MappingUtil.create(table.schema());
        table.updateProperties()
                .set(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(mapping))
                .commit();

        // an Avro file written by another tool: same names, no Iceberg field ids
        org.apache.avro.Schema avroSchema =
                new org.apache.avro.Schema.Parser()
                        .parse(
                                "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
                                        + "{\"name\":\"id\",\"type\":\"long\"},"
                                        + "{\"name\":\"data\",\"type\":[\"null\",\"string\"]},"
                                        + "{\"name\":\"category\",\"type\":\"string\"},"
                                        + "{\"name\":\"ts\",\"type\":[\"null\",\"long\"]}]}");
        File file = dir.resolve("foreign.avro").toFile();
        try (DataFileWriter<GenericData.Record> writer =
                new DataFileWriter<>(new GenericDatumWriter<>(avroSchema))) {
            writer.create(avroSchema, file);
            for (long id = 0; id < 2; id++) {
                GenericData.Record record = new GenericData.Record(avroSchema);
                record.put("id", id);
                record.put("data", "x" + id);
                record.put("category", "a");
                record.put("ts", id);
                writer.append(record);
            }
        }
        DataFile dataFile =
                DataFiles.builder(table.spec())
                        .withPath(file.getAbsolutePath())
                        .withFormat(FileFormat.AVRO)
                        .withFileSizeInBytes(file.length())
                        .withRecordCount(2)
                        .withPartition(
                                TaskTestTables.partitionOf(TaskTestTables.record(0, null, "a", 0)))
                        .build();
        table.newAppend().appendFile(dataFile).commit();

        List<FileScanTask> tasks = TaskTestTables.planFiles(table, null, true);
        RowDataFileTaskReader withMapping =
                new RowDataFileTaskReader(
                        table.schema(),
                        SCHEMA.select("id", "data"),
                        mapping,
                        true,
                        table.io(),
                        table.encryption());
        assertThat(
                        TaskTestTables.formatAll(
                                SCHEMA.select("id", "data"),
                                TaskTestTables.readAll(withMapping, tasks)))
                .containsExactly("0|x0", "1|x1");
    }

    @Test
    void refusesFiltersOnHiddenFieldsOfAPartlyProjectedStruct() {
        Schema nested =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(
                                2,
                                "location",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                3, "lat", Types.DoubleType.get()),
                                        Types.NestedField.optional(
                                                4, "lon", Types.DoubleType.get()))));
        Schema projected = nested.select("id", "location.lat");

        assertThatThrownBy(
                        () ->
                                RowDataFileTaskReader.withFilterColumns(
                                        nested,
                                        projected,
                                        Expressions.greaterThan("location.lon", 1.0),
                                        true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("location.lon")
                .hasMessageContaining("partly projected");
        assertThat(
                        RowDataFileTaskReader.withFilterColumns(
                                        nested,
                                        nested.select("id"),
                                        Expressions.greaterThan("location.lon", 1.0),
                                        true)
                                .asStruct())
                .isEqualTo(nested.asStruct());
    }
}
