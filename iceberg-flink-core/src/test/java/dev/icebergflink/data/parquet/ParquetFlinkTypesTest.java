package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FormatFlinkTypesSuite;
import java.io.File;
import java.math.BigDecimal;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The shared Flink-types suite for Parquet, and Parquet's own decimal encodings (INT32, INT64 and
 * fixed-length binary) and writer error messages.
 */
class ParquetFlinkTypesTest extends FormatFlinkTypesSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.PARQUET;
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
        File file = files.newFile(dir);

        files.writeRows(file, schema, null, rows);
        List<RowData> read = files.readRows(file, schema);
        List<org.apache.iceberg.data.Record> generic = files.readRecords(file, schema);

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
        File file = files.newFile(dir);

        assertThatThrownBy(() -> files.writeRows(file, schema, wrong, List.of()))
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
                                files.writeRows(
                                        files.newFile(dir),
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
                                files.writeRows(
                                        files.newFile(dir),
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
                                files.writeRows(
                                        files.newFile(dir),
                                        schema,
                                        rowType,
                                        List.of(GenericRowData.of(null, new byte[] {1, 2}))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'code'")
                .hasMessageContaining("exactly 3 bytes");
    }
}
