package dev.icebergflink.data.avro;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.FormatFlinkTypesSuite;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The shared Flink-types suite for Avro, and Avro's own writer checks: nulls in required columns,
 * row widths and decimal ranges fail naming the column; decimals of every fixed length round trip.
 */
class AvroFlinkTypesTest extends FormatFlinkTypesSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.AVRO;
    }

    @Test
    void writesIntsIntoLongColumnsAndFloatsIntoDoubleColumns() {
        // only the Avro writer widens these; the Parquet and ORC writers want the exact type
        Schema schema =
                new Schema(
                        optional(1, "int_as_long", Types.LongType.get()),
                        optional(2, "float_as_double", Types.DoubleType.get()));
        RowType narrower = RowType.of(new IntType(), new FloatType());
        File file = files.newFile(dir);

        files.writeRows(
                file,
                schema,
                narrower,
                List.of(GenericRowData.of(7, 1.5f), GenericRowData.of(null, null)));

        RowDataAssert.assertRowsEqual(
                schema,
                List.of(GenericRowData.of(7L, 1.5d), GenericRowData.of(null, null)),
                files.readRows(file, schema));
    }

    @Test
    void nullInARequiredColumnNamesTheColumn() {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(
                                2,
                                "inner",
                                Types.StructType.of(required(3, "must", Types.StringType.get()))));
        // field names differ from the Iceberg ones on purpose: columns are matched by position
        RowType nullable = RowType.of(new BigIntType(), RowType.of(new VarCharType(5)));

        assertThatThrownBy(
                        () ->
                                files.writeRows(
                                        files.newFile(dir),
                                        schema,
                                        nullable,
                                        List.of(
                                                GenericRowData.of(
                                                        1L, GenericRowData.of((Object) null)))))
                .hasStackTraceContaining(
                        "NULL value in column 'inner.must', which the Iceberg table schema"
                                + " declares required (NOT NULL)");

        assertThatThrownBy(
                        () ->
                                files.writeRows(
                                        files.newFile(dir),
                                        schema,
                                        nullable,
                                        List.of(GenericRowData.of(null, null))))
                .hasStackTraceContaining(
                        "NULL value in column 'id', which the Iceberg table schema declares"
                                + " required (NOT NULL)");
    }

    @Test
    void aFlinkTypeThatDoesNotFitTheColumnNamesTheColumn() {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "amount", Types.IntegerType.get()));
        RowType wrong = RowType.of(new BigIntType(false), new VarCharType(10));

        assertThatThrownBy(() -> files.writeRows(files.newFile(dir), schema, wrong, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 'amount'")
                .hasMessageContaining("VARCHAR(10)");
    }

    @Test
    void aRowOfAnotherWidthIsRejected() {
        Schema schema = new Schema(required(1, "id", Types.LongType.get()));
        RowType wider = RowType.of(new BigIntType(false), new IntType());

        assertThatThrownBy(() -> files.writeRows(files.newFile(dir), schema, wider, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the Flink row has 2 fields but the Iceberg struct has 1");
    }

    @Test
    void decimalsThatDoNotFitNameTheColumn() {
        Schema schema = new Schema(optional(1, "price", Types.DecimalType.of(9, 2)));
        RowType wide = RowType.of(new DecimalType(12, 2));
        DecimalData tooBig = DecimalData.fromBigDecimal(new BigDecimal("1234567890.12"), 12, 2);
        DecimalData fits = DecimalData.fromBigDecimal(new BigDecimal("-9999999.99"), 12, 2);

        File ok = files.newFile(dir);
        files.writeRows(ok, schema, wide, List.of(GenericRowData.of(fits)));
        assertThat(files.readRows(ok, schema).get(0).getDecimal(0, 9, 2).toBigDecimal())
                .isEqualByComparingTo("-9999999.99");

        assertThatThrownBy(
                        () ->
                                files.writeRows(
                                        files.newFile(dir),
                                        schema,
                                        wide,
                                        List.of(GenericRowData.of(tooBig))))
                .hasStackTraceContaining("into column 'price' of type decimal(9, 2)");

        RowType otherScale = RowType.of(new DecimalType(9, 3));
        assertThatThrownBy(() -> files.writeRows(files.newFile(dir), schema, otherScale, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 'price'")
                .hasMessageContaining("scales differ");
    }

    @Test
    void writesDecimalsOfEveryEncodingWidth() {
        // fixed lengths from 1 to 16 bytes, compact and non-compact, positive and negative
        for (int precision = 1; precision <= 38; precision++) {
            int scale = precision / 3;
            Schema schema = new Schema(optional(1, "d", Types.DecimalType.of(precision, scale)));
            BigDecimal max =
                    new BigDecimal(
                            java.math.BigInteger.TEN
                                    .pow(precision)
                                    .subtract(java.math.BigInteger.ONE),
                            scale);
            List<RowData> rows =
                    List.of(
                            GenericRowData.of(DecimalData.fromBigDecimal(max, precision, scale)),
                            GenericRowData.of(
                                    DecimalData.fromBigDecimal(max.negate(), precision, scale)),
                            GenericRowData.of(DecimalData.zero(precision, scale)),
                            GenericRowData.of(
                                    DecimalData.fromBigDecimal(
                                            BigDecimal.ONE.movePointLeft(scale).negate(),
                                            precision,
                                            scale)));
            File file = files.newFile(dir);
            files.writeRows(file, schema, null, rows);

            RowDataAssert.assertRowsEqual(schema, rows, files.readRows(file, schema));
            RowDataAssert.assertRecordsMatchRows(schema, files.readRecords(file, schema), rows);
        }
    }

    private static <K, V> Map<K, V> linkedMap(K k1, V v1, K k2, V v2) {
        Map<K, V> map = new LinkedHashMap<>();
        map.put(k1, v1);
        map.put(k2, v2);
        return map;
    }
}
