package dev.icebergflink.data;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Iceberg {@code unknown} columns (format v3) through our RowData readers and writers: they map to
 * a nullable STRING, read NULL, and writers store nothing for them (not even a value a row holds).
 */
class UnknownColumnFilesTest {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.IntegerType.get()),
                    optional(2, "u", Types.UnknownType.get()),
                    optional(3, "s", Types.StringType.get()),
                    optional(
                            4,
                            "nested",
                            Types.StructType.of(
                                    optional(5, "nu", Types.UnknownType.get()),
                                    optional(6, "ns", Types.StringType.get()))));

    @TempDir Path dir;

    @Test
    void unknownIsANullableString() {
        RowType rowType = FlinkSchemaUtil.convert(SCHEMA);
        assertThat(rowType.getTypeAt(1).getTypeRoot()).isEqualTo(LogicalTypeRoot.VARCHAR);
        assertThat(rowType.getTypeAt(1).isNullable()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "AVRO", "ORC"})
    void unknownColumnsReadNullAndAreNotWritten(FileFormat format) {
        FormatTestFiles files = FormatTestFiles.of(format);
        File file = files.newFile(dir);
        RowType rowType = FlinkSchemaUtil.convert(SCHEMA);
        List<RowData> rows =
                List.of(
                        GenericRowData.of(
                                1,
                                null,
                                StringData.fromString("a"),
                                GenericRowData.of(
                                        StringData.fromString("dropped too"),
                                        StringData.fromString("kept"))),
                        // a value in an unknown column is not stored
                        GenericRowData.of(
                                2,
                                StringData.fromString("dropped"),
                                StringData.fromString("b"),
                                null));
        files.writeRows(file, SCHEMA, rowType, rows);

        List<RowData> read = files.readRows(file, SCHEMA);
        assertThat(read).hasSize(2);
        assertThat(read.get(0).getInt(0)).isEqualTo(1);
        assertThat(read.get(0).isNullAt(1)).isTrue();
        assertThat(read.get(0).getString(2).toString()).isEqualTo("a");
        assertThat(read.get(0).getRow(3, 2).isNullAt(0)).isTrue();
        assertThat(read.get(0).getRow(3, 2).getString(1).toString()).isEqualTo("kept");
        assertThat(read.get(1).getInt(0)).isEqualTo(2);
        assertThat(read.get(1).isNullAt(1)).isTrue();
        assertThat(read.get(1).getString(2).toString()).isEqualTo("b");
        assertThat(read.get(1).isNullAt(3)).isTrue();

        List<Record> records = files.readRecords(file, SCHEMA);
        assertThat(records.get(1).getField("u")).isNull();
        assertThat(records.get(1).getField("s")).isEqualTo("b");
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "AVRO", "ORC"})
    void filesOfTheGenericWriterReadNull(FileFormat format) {
        FormatTestFiles files = FormatTestFiles.of(format);
        File file = files.newFile(dir);
        Record record = GenericRecord.create(SCHEMA);
        record.setField("id", 7);
        record.setField("s", "x");
        files.writeRecords(file, SCHEMA, List.of(record));

        List<RowData> read = files.readRows(file, SCHEMA);
        assertThat(read).hasSize(1);
        assertThat(read.get(0).getInt(0)).isEqualTo(7);
        assertThat(read.get(0).isNullAt(1)).isTrue();
        assertThat(read.get(0).getString(2).toString()).isEqualTo("x");
    }
}
