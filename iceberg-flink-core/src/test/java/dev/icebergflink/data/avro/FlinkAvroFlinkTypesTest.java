package dev.icebergflink.data.avro;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink types that have no exact Iceberg counterpart (TINYINT, SMALLINT, CHAR, VARCHAR(n),
 * TIMESTAMP(3), TIMESTAMP_LTZ(3), MULTISET, and narrower numbers into wider columns) are written
 * into the matching Iceberg columns and read back as the Iceberg-side types; rows that do not fit
 * the schema fail with messages that name the column.
 */
class FlinkAvroFlinkTypesTest {

    @TempDir Path dir;

    private static final Schema SCHEMA =
            new Schema(
                    optional(1, "tiny", Types.IntegerType.get()),
                    optional(2, "small", Types.IntegerType.get()),
                    optional(3, "chars", Types.StringType.get()),
                    optional(4, "varchars", Types.StringType.get()),
                    optional(5, "ts_millis", Types.TimestampType.withoutZone()),
                    optional(6, "ltz_millis", Types.TimestampType.withZone()),
                    optional(
                            7,
                            "bag",
                            Types.MapType.ofRequired(
                                    8, 9, Types.StringType.get(), Types.IntegerType.get())),
                    optional(10, "int_as_long", Types.LongType.get()),
                    optional(11, "float_as_double", Types.DoubleType.get()),
                    optional(
                            12,
                            "small_list",
                            Types.ListType.ofOptional(13, Types.IntegerType.get())),
                    optional(
                            14,
                            "int_bag",
                            Types.MapType.ofRequired(
                                    15, 16, Types.IntegerType.get(), Types.IntegerType.get())),
                    optional(17, "ts_nanos_from_millis", Types.TimestampNanoType.withZone()));

    private static final RowType FLINK_TYPE =
            RowType.of(
                    new LogicalType[] {
                        new TinyIntType(),
                        new SmallIntType(),
                        new CharType(3),
                        new VarCharType(10),
                        new TimestampType(3),
                        new LocalZonedTimestampType(3),
                        new MultisetType(new VarCharType(5)),
                        new IntType(),
                        new FloatType(),
                        new ArrayType(new SmallIntType()),
                        new MultisetType(new IntType(false)),
                        new LocalZonedTimestampType(3)
                    },
                    new String[] {
                        "tiny",
                        "small",
                        "chars",
                        "varchars",
                        "ts_millis",
                        "ltz_millis",
                        "bag",
                        "int_as_long",
                        "float_as_double",
                        "small_list",
                        "int_bag",
                        "ts_nanos_from_millis"
                    });

    @Test
    void writesFlinkOnlyTypesAndReadsThemBackAsIcebergTypes() {
        TimestampData millis = TimestampData.fromEpochMillis(-1_234_567_891L);
        GenericRowData written =
                GenericRowData.of(
                        (byte) -128,
                        (short) 32_000,
                        StringData.fromString("abc"),
                        StringData.fromString("varchar"),
                        millis,
                        millis,
                        new GenericMapData(
                                linkedMap(
                                        StringData.fromString("x"),
                                        2,
                                        StringData.fromString("yy"),
                                        1)),
                        7,
                        1.5f,
                        new GenericArrayData(new Object[] {(short) 1, null, (short) -3}),
                        new GenericMapData(linkedMap(10, 3, -4, 1)),
                        millis);
        GenericRowData nulls = new GenericRowData(12);

        File file = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRows(file, SCHEMA, FLINK_TYPE, List.of(written, nulls));
        List<RowData> read = AvroTestFiles.readRows(file, SCHEMA);

        GenericRowData expected =
                GenericRowData.of(
                        -128,
                        32_000,
                        StringData.fromString("abc"),
                        StringData.fromString("varchar"),
                        millis,
                        millis,
                        new GenericMapData(
                                linkedMap(
                                        StringData.fromString("x"),
                                        2,
                                        StringData.fromString("yy"),
                                        1)),
                        7L,
                        1.5d,
                        new GenericArrayData(new Object[] {1, null, -3}),
                        new GenericMapData(linkedMap(10, 3, -4, 1)),
                        millis);
        RowDataAssert.assertRowsEqual(SCHEMA, List.of(expected, nulls), read);
        assertThat(FlinkSchemaUtil.convert(SCHEMA).getFieldCount())
                .isEqualTo(FLINK_TYPE.getFieldCount());
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
                                AvroTestFiles.writeRows(
                                        AvroTestFiles.newFile(dir),
                                        schema,
                                        nullable,
                                        List.of(
                                                GenericRowData.of(
                                                        1L, GenericRowData.of((Object) null)))))
                .hasStackTraceContaining("Cannot write null into column 'inner.must'");

        assertThatThrownBy(
                        () ->
                                AvroTestFiles.writeRows(
                                        AvroTestFiles.newFile(dir),
                                        schema,
                                        nullable,
                                        List.of(GenericRowData.of(null, null))))
                .hasStackTraceContaining("Cannot write null into column 'id'");
    }

    @Test
    void aFlinkTypeThatDoesNotFitTheColumnNamesTheColumn() {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "amount", Types.IntegerType.get()));
        RowType wrong = RowType.of(new BigIntType(false), new VarCharType(10));

        assertThatThrownBy(
                        () ->
                                AvroTestFiles.writeRows(
                                        AvroTestFiles.newFile(dir), schema, wrong, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 'amount'")
                .hasMessageContaining("VARCHAR(10)");
    }

    @Test
    void aRowOfAnotherWidthIsRejected() {
        Schema schema = new Schema(required(1, "id", Types.LongType.get()));
        RowType wider = RowType.of(new BigIntType(false), new IntType());

        assertThatThrownBy(
                        () ->
                                AvroTestFiles.writeRows(
                                        AvroTestFiles.newFile(dir), schema, wider, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the Flink row has 2 fields but the Iceberg struct has 1");
    }

    @Test
    void decimalsThatDoNotFitNameTheColumn() {
        Schema schema = new Schema(optional(1, "price", Types.DecimalType.of(9, 2)));
        RowType wide = RowType.of(new DecimalType(12, 2));
        DecimalData tooBig = DecimalData.fromBigDecimal(new BigDecimal("1234567890.12"), 12, 2);
        DecimalData fits = DecimalData.fromBigDecimal(new BigDecimal("-9999999.99"), 12, 2);

        File ok = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRows(ok, schema, wide, List.of(GenericRowData.of(fits)));
        assertThat(AvroTestFiles.readRows(ok, schema).get(0).getDecimal(0, 9, 2).toBigDecimal())
                .isEqualByComparingTo("-9999999.99");

        assertThatThrownBy(
                        () ->
                                AvroTestFiles.writeRows(
                                        AvroTestFiles.newFile(dir),
                                        schema,
                                        wide,
                                        List.of(GenericRowData.of(tooBig))))
                .hasStackTraceContaining("into column 'price' of type decimal(9, 2)");

        RowType otherScale = RowType.of(new DecimalType(9, 3));
        assertThatThrownBy(
                        () ->
                                AvroTestFiles.writeRows(
                                        AvroTestFiles.newFile(dir), schema, otherScale, List.of()))
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
            File file = AvroTestFiles.newFile(dir);
            AvroTestFiles.writeRows(file, schema, null, rows);

            RowDataAssert.assertRowsEqual(schema, rows, AvroTestFiles.readRows(file, schema));
            RowDataAssert.assertRecordsMatchRows(
                    schema, AvroTestFiles.readRecords(file, schema), rows);
        }
    }

    private static <K, V> Map<K, V> linkedMap(K k1, V v1, K k2, V v2) {
        Map<K, V> map = new LinkedHashMap<>();
        map.put(k1, v1);
        map.put(k2, v2);
        return map;
    }
}
