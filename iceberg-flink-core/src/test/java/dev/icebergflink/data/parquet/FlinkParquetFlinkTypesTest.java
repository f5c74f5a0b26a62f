package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.File;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flink types without an exact Iceberg twin are written into their Iceberg counterparts. */
class FlinkParquetFlinkTypesTest {

    private static final RowType FLINK_ONLY =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("tiny", DataTypes.TINYINT()),
                                    DataTypes.FIELD("small", DataTypes.SMALLINT().notNull()),
                                    DataTypes.FIELD("fixed_chars", DataTypes.CHAR(5)),
                                    DataTypes.FIELD("short_text", DataTypes.VARCHAR(10)),
                                    DataTypes.FIELD("ts_millis", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("ltz_millis", DataTypes.TIMESTAMP_LTZ(3)),
                                    DataTypes.FIELD(
                                            "words", DataTypes.MULTISET(DataTypes.STRING())),
                                    DataTypes.FIELD("time", DataTypes.TIME(3)),
                                    DataTypes.FIELD(
                                            "nested",
                                            DataTypes.ARRAY(
                                                    DataTypes.ROW(
                                                            DataTypes.FIELD(
                                                                    "t", DataTypes.TINYINT()),
                                                            DataTypes.FIELD(
                                                                    "m",
                                                                    DataTypes.MULTISET(
                                                                            DataTypes
                                                                                    .SMALLINT()))))))
                            .getLogicalType();

    @TempDir File temp;

    @Test
    void writesFlinkOnlyTypesAsTheirIcebergCounterparts() {
        Schema schema = FlinkSchemaUtil.toSchema(FLINK_ONLY);
        assertThat(schema.findType("tiny")).isEqualTo(Types.IntegerType.get());
        assertThat(schema.findType("words"))
                .isEqualTo(
                        Types.MapType.ofRequired(
                                schema.findField("words.key").fieldId(),
                                schema.findField("words.value").fieldId(),
                                Types.StringType.get(),
                                Types.IntegerType.get()));
        LocalDateTime local = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_000_000);
        Instant instant = Instant.parse("1969-07-20T20:17:40.456Z");
        Map<Object, Object> words = new LinkedHashMap<>();
        words.put(StringData.fromString("a"), 2);
        words.put(StringData.fromString("b"), 1);
        Map<Object, Object> shorts = new LinkedHashMap<>();
        shorts.put((short) -3, 4);
        List<RowData> rows =
                List.of(
                        GenericRowData.of(
                                (byte) -7,
                                (short) 30_000,
                                StringData.fromString("abc  "),
                                StringData.fromString("hello"),
                                TimestampData.fromLocalDateTime(local),
                                TimestampData.fromInstant(instant),
                                new GenericMapData(words),
                                45_296_789,
                                new org.apache.flink.table.data.GenericArrayData(
                                        new Object[] {
                                            GenericRowData.of(
                                                    (byte) 127, new GenericMapData(shorts)),
                                            null,
                                            GenericRowData.of(null, null)
                                        })),
                        GenericRowData.of(
                                null, (short) -1, null, null, null, null, null, null, null));
        File file = new File(temp, "flink-types.parquet");

        ParquetTestFiles.writeRows(file, schema, FLINK_ONLY, rows);
        List<RowData> read = ParquetTestFiles.readRows(file, schema);

        RowData first = read.get(0);
        assertThat(first.getInt(0)).isEqualTo(-7);
        assertThat(first.getInt(1)).isEqualTo(30_000);
        assertThat(first.getString(2).toString()).isEqualTo("abc  ");
        assertThat(first.getString(3).toString()).isEqualTo("hello");
        assertThat(first.getTimestamp(4, 6).toLocalDateTime()).isEqualTo(local);
        assertThat(first.getTimestamp(5, 6).toInstant()).isEqualTo(instant);
        MapData counts = first.getMap(6);
        assertThat(counts.size()).isEqualTo(2);
        assertThat(counts.keyArray().getString(0).toString()).isEqualTo("a");
        assertThat(counts.valueArray().getInt(0)).isEqualTo(2);
        assertThat(counts.keyArray().getString(1).toString()).isEqualTo("b");
        assertThat(counts.valueArray().getInt(1)).isEqualTo(1);
        assertThat(first.getInt(7)).isEqualTo(45_296_789);
        ArrayData nested = first.getArray(8);
        assertThat(nested.size()).isEqualTo(3);
        assertThat(nested.getRow(0, 2).getInt(0)).isEqualTo(127);
        assertThat(nested.getRow(0, 2).getMap(1).keyArray().getInt(0)).isEqualTo(-3);
        assertThat(nested.getRow(0, 2).getMap(1).valueArray().getInt(0)).isEqualTo(4);
        assertThat(nested.isNullAt(1)).isTrue();
        assertThat(nested.getRow(2, 2).isNullAt(0)).isTrue();
        assertThat(nested.getRow(2, 2).isNullAt(1)).isTrue();

        RowData second = read.get(1);
        assertThat(second.getInt(1)).isEqualTo(-1);
        for (int pos : new int[] {0, 2, 3, 4, 5, 6, 7, 8}) {
            assertThat(second.isNullAt(pos)).as("position %s", pos).isTrue();
        }
    }

    @Test
    void writesDecimalsOfEveryEncodingAndSign() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(1, "d1", Types.DecimalType.of(1, 0)),
                        Types.NestedField.optional(2, "d9", Types.DecimalType.of(9, 4)),
                        Types.NestedField.optional(3, "d10", Types.DecimalType.of(10, 0)),
                        Types.NestedField.optional(4, "d18", Types.DecimalType.of(18, 18)),
                        Types.NestedField.optional(5, "d19", Types.DecimalType.of(19, 2)),
                        Types.NestedField.optional(6, "d38", Types.DecimalType.of(38, 0)));
        String[][] values = {
            {
                "9",
                "99999.9999",
                "9999999999",
                "0.999999999999999999",
                "99999999999999999.99",
                "9".repeat(38)
            },
            {
                "-9",
                "-99999.9999",
                "-9999999999",
                "-0.999999999999999999",
                "-99999999999999999.99",
                "-" + "9".repeat(38)
            },
            {"0", "0.0001", "-1", "-0.000000000000000001", "0.01", "-1"},
            {"1", "-0.0001", "1", "0.000000000000000001", "-0.01", "1"}
        };
        int[][] precisionScale = {{1, 0}, {9, 4}, {10, 0}, {18, 18}, {19, 2}, {38, 0}};
        List<RowData> rows = new java.util.ArrayList<>();
        for (String[] row : values) {
            GenericRowData data = new GenericRowData(row.length);
            for (int i = 0; i < row.length; i++) {
                data.setField(
                        i,
                        DecimalData.fromBigDecimal(
                                new BigDecimal(row[i]),
                                precisionScale[i][0],
                                precisionScale[i][1]));
            }
            rows.add(data);
        }
        File file = new File(temp, "decimals.parquet");

        ParquetTestFiles.writeRows(file, schema, null, rows);
        List<RowData> read = ParquetTestFiles.readRows(file, schema);
        List<org.apache.iceberg.data.Record> generic = ParquetTestFiles.readRecords(file, schema);

        for (int r = 0; r < values.length; r++) {
            for (int i = 0; i < values[r].length; i++) {
                BigDecimal expected = new BigDecimal(values[r][i]);
                assertThat(
                                read.get(r)
                                        .getDecimal(i, precisionScale[i][0], precisionScale[i][1])
                                        .toBigDecimal())
                        .as("row %s column %s", r, i)
                        .isEqualTo(expected);
                assertThat(generic.get(r).get(i))
                        .as("generic row %s column %s", r, i)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void rejectsARowTypeThatDoesNotFitTheSchema() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(
                                2,
                                "info",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                3, "when", Types.DateType.get()))));
        RowType wrong =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                                        DataTypes.FIELD(
                                                "info",
                                                DataTypes.ROW(
                                                        DataTypes.FIELD(
                                                                "when", DataTypes.STRING()))))
                                .getLogicalType();
        File file = new File(temp, "wrong.parquet");

        assertThatThrownBy(() -> ParquetTestFiles.writeRows(file, schema, wrong, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("info.when")
                .hasMessageContaining("STRING")
                .hasMessageContaining("date")
                .hasMessageContaining("DATE");
    }

    @Test
    void rejectsValuesThatDoNotFitTheirColumn() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(1, "amount", Types.DecimalType.of(9, 2)),
                        Types.NestedField.optional(2, "code", Types.FixedType.ofLength(3)));
        RowType rowType = FlinkSchemaUtil.convert(schema);

        assertThatThrownBy(
                        () ->
                                ParquetTestFiles.writeRows(
                                        new File(temp, "scale.parquet"),
                                        schema,
                                        rowType,
                                        List.of(
                                                GenericRowData.of(
                                                        DecimalData.fromUnscaledLong(1, 9, 3),
                                                        null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'amount'")
                .hasMessageContaining("scale 3");
        assertThatThrownBy(
                        () ->
                                ParquetTestFiles.writeRows(
                                        new File(temp, "digits.parquet"),
                                        schema,
                                        rowType,
                                        List.of(
                                                GenericRowData.of(
                                                        DecimalData.fromUnscaledLong(
                                                                12_345_678_901L, 18, 2),
                                                        null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'amount'")
                .hasMessageContaining("more than 9 digits");
        assertThatThrownBy(
                        () ->
                                ParquetTestFiles.writeRows(
                                        new File(temp, "fixed.parquet"),
                                        schema,
                                        rowType,
                                        List.of(GenericRowData.of(null, new byte[] {1, 2}))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'code'")
                .hasMessageContaining("exactly 3 bytes");
    }
}
