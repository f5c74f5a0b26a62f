package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The top-level row writer: which columns it writes straight from the row, and that those columns
 * hold exactly what the general writers would write, from generic and binary rows alike, nulls and
 * NaN metrics included.
 */
class ParquetTopLevelRowWriterTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "tiny", Types.IntegerType.get()),
                    Types.NestedField.optional(3, "small", Types.IntegerType.get()),
                    Types.NestedField.optional(4, "flag", Types.BooleanType.get()),
                    Types.NestedField.optional(5, "day", Types.DateType.get()),
                    Types.NestedField.optional(6, "ratio", Types.FloatType.get()),
                    Types.NestedField.optional(7, "price", Types.DoubleType.get()),
                    Types.NestedField.optional(8, "name", Types.StringType.get()),
                    Types.NestedField.optional(9, "code", Types.StringType.get()),
                    Types.NestedField.optional(10, "at", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(11, "at_ltz", Types.TimestampType.withZone()),
                    Types.NestedField.optional(12, "at_ns", Types.TimestampNanoType.withoutZone()),
                    Types.NestedField.optional(13, "amount", Types.DecimalType.of(10, 2)),
                    Types.NestedField.optional(
                            14,
                            "nested",
                            Types.StructType.of(
                                    Types.NestedField.optional(
                                            15, "inner", Types.LongType.get()))));

    private static final RowType ROW_TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("tiny", DataTypes.TINYINT()),
                                    DataTypes.FIELD("small", DataTypes.SMALLINT()),
                                    DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
                                    DataTypes.FIELD("day", DataTypes.DATE()),
                                    DataTypes.FIELD("ratio", DataTypes.FLOAT()),
                                    DataTypes.FIELD("price", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("name", DataTypes.STRING()),
                                    DataTypes.FIELD("code", DataTypes.CHAR(3)),
                                    DataTypes.FIELD("at", DataTypes.TIMESTAMP(6)),
                                    DataTypes.FIELD("at_ltz", DataTypes.TIMESTAMP_LTZ(3)),
                                    DataTypes.FIELD("at_ns", DataTypes.TIMESTAMP(9)),
                                    DataTypes.FIELD("amount", DataTypes.DECIMAL(10, 2)),
                                    DataTypes.FIELD(
                                            "nested",
                                            DataTypes.ROW(
                                                    DataTypes.FIELD("inner", DataTypes.BIGINT()))))
                            .getLogicalType();

    @TempDir Path dir;

    private final FormatTestFiles files = FormatTestFiles.of(FileFormat.PARQUET);

    @Test
    void writesThePlainPrimitiveColumnsDirectly() {
        ParquetTopLevelRowWriter writer =
                (ParquetTopLevelRowWriter)
                        ParquetRowDataWriters.buildWriter(
                                SCHEMA, ParquetSchemaUtil.convert(SCHEMA, "table"), ROW_TYPE);

        // all but the decimal and the nested row
        assertThat(writer.directColumnCount()).isEqualTo(12);
    }

    @Test
    void genericAndBinaryRowsWriteWhatTheGenericReaderReadsBack() {
        List<RowData> generic = rows();
        RowDataSerializer serializer = new RowDataSerializer(ROW_TYPE);
        List<RowData> binary = new ArrayList<>();
        for (RowData row : generic) {
            binary.add(serializer.toBinaryRow(row).copy());
        }

        for (List<RowData> written : List.of(generic, binary)) {
            File file = files.newFile(dir);
            Metrics metrics = files.writeRows(file, SCHEMA, ROW_TYPE, written);
            List<Record> read = files.readRecords(file, SCHEMA);

            assertThat(read).hasSize(3);
            Record first = read.get(0);
            assertThat(first.getField("id")).isEqualTo(1L);
            assertThat(first.getField("tiny")).isEqualTo(-7);
            assertThat(first.getField("small")).isEqualTo(1234);
            assertThat(first.getField("flag")).isEqualTo(true);
            assertThat(first.getField("day")).hasToString("2026-12-03");
            assertThat(first.getField("ratio")).isEqualTo(Float.NaN);
            assertThat(first.getField("price")).isEqualTo(9.5);
            assertThat(first.getField("name")).isEqualTo("größe ✓");
            assertThat(first.getField("code")).isEqualTo("abc");
            assertThat(first.getField("at"))
                    .isEqualTo(LocalDateTime.of(2026, 12, 3, 10, 15, 30, 123_456_000));
            assertThat(first.getField("at_ltz").toString()).isEqualTo("2026-12-03T10:15:30.123Z");
            assertThat(first.getField("at_ns"))
                    .isEqualTo(LocalDateTime.of(2026, 12, 3, 10, 15, 30, 123_456_789));
            assertThat(first.getField("amount")).isEqualTo(new BigDecimal("12.34"));
            assertThat(((Record) first.getField("nested")).getField("inner")).isEqualTo(42L);

            Record nulls = read.get(1);
            assertThat(nulls.getField("id")).isEqualTo(2L);
            for (String name :
                    List.of(
                            "tiny", "small", "flag", "day", "ratio", "price", "name", "code", "at",
                            "at_ltz", "at_ns", "amount", "nested")) {
                assertThat(nulls.getField(name)).as(name).isNull();
            }
            assertThat(read.get(2).getField("ratio")).isEqualTo(-1.5f);
            assertThat(read.get(2).getField("name")).isEqualTo("");

            // counts as Iceberg's own writers give them: nulls counted in, NaN apart
            assertThat(metrics.valueCounts()).containsEntry(6, 3L).containsEntry(8, 3L);
            assertThat(metrics.nullValueCounts()).containsEntry(6, 1L).containsEntry(7, 1L);
            assertThat(metrics.nanValueCounts()).containsEntry(6, 1L).containsEntry(7, 0L);
        }
    }

    private static List<RowData> rows() {
        LocalDateTime at = LocalDateTime.of(2026, 12, 3, 10, 15, 30, 123_456_789);
        GenericRowData full =
                GenericRowData.of(
                        1L,
                        (byte) -7,
                        (short) 1234,
                        true,
                        (int) at.toLocalDate().toEpochDay(),
                        Float.NaN,
                        9.5,
                        StringData.fromString("größe ✓"),
                        StringData.fromString("abc"),
                        TimestampData.fromLocalDateTime(at.withNano(123_456_000)),
                        TimestampData.fromEpochMillis(
                                at.toInstant(java.time.ZoneOffset.UTC).toEpochMilli()),
                        TimestampData.fromLocalDateTime(at),
                        DecimalData.fromBigDecimal(new BigDecimal("12.34"), 10, 2),
                        GenericRowData.of(42L));
        GenericRowData nulls = new GenericRowData(14);
        nulls.setField(0, 2L);
        GenericRowData other =
                GenericRowData.of(
                        3L,
                        (byte) 1,
                        (short) 2,
                        false,
                        0,
                        -1.5f,
                        -0.0,
                        StringData.fromString(""),
                        StringData.fromString("xyz"),
                        TimestampData.fromEpochMillis(0),
                        TimestampData.fromEpochMillis(-1),
                        TimestampData.fromEpochMillis(1, 1),
                        DecimalData.fromBigDecimal(new BigDecimal("-0.01"), 10, 2),
                        GenericRowData.of((Object) null));
        return List.of(full, nulls, other);
    }
}
