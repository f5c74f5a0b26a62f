package dev.icebergflink.data.row;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RowDataConverter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructProjection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RowDataStructLikeTest {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "b", Types.BooleanType.get()),
                    optional(3, "i", Types.IntegerType.get()),
                    optional(4, "l", Types.LongType.get()),
                    optional(5, "f", Types.FloatType.get()),
                    optional(6, "d", Types.DoubleType.get()),
                    optional(7, "date", Types.DateType.get()),
                    optional(8, "time", Types.TimeType.get()),
                    optional(9, "ts", Types.TimestampType.withoutZone()),
                    optional(10, "tstz", Types.TimestampType.withZone()),
                    optional(11, "s", Types.StringType.get()),
                    optional(12, "uuid", Types.UUIDType.get()),
                    optional(13, "fixed", Types.FixedType.ofLength(7)),
                    optional(14, "bin", Types.BinaryType.get()),
                    optional(15, "dec9", Types.DecimalType.of(9, 2)),
                    optional(16, "dec38", Types.DecimalType.of(38, 10)),
                    optional(17, "tiny", Types.IntegerType.get()),
                    required(18, "small", Types.IntegerType.get()),
                    optional(19, "ch", Types.StringType.get()),
                    optional(20, "vc", Types.StringType.get()),
                    optional(
                            21,
                            "nested",
                            Types.StructType.of(
                                    optional(22, "inner_int", Types.IntegerType.get()),
                                    optional(23, "inner_ts", Types.TimestampType.withZone()),
                                    required(24, "inner_str", Types.StringType.get()),
                                    optional(
                                            25,
                                            "inner_deep",
                                            Types.StructType.of(
                                                    required(26, "x", Types.LongType.get()))))),
                    optional(27, "ts_ns", Types.TimestampNanoType.withoutZone()),
                    optional(28, "tstz_ns", Types.TimestampNanoType.withZone()));

    /** Columns stored in narrower Flink types than Iceberg's. */
    private static final Map<String, LogicalType> FLINK_OVERRIDES =
            Map.of(
                    "tiny", new TinyIntType(),
                    "small", new SmallIntType(false),
                    "ch", new CharType(5),
                    "vc", new VarCharType(10));

    private static final RowType ROW_TYPE = (RowType) flinkType(SCHEMA.asStruct(), true, true);

    private static final int ROWS = 300;

    static Stream<Arguments> specs() {
        return Stream.of(
                Arguments.of("identity", identitySpec()),
                Arguments.of(
                        "bucket",
                        PartitionSpec.builderFor(SCHEMA)
                                .bucket("i", 16)
                                .bucket("l", 16)
                                .bucket("s", 16)
                                .bucket("dec9", 16)
                                .bucket("dec38", 16)
                                .bucket("date", 16)
                                .bucket("time", 16)
                                .bucket("ts", 16)
                                .bucket("tstz", 16)
                                .bucket("uuid", 16)
                                .bucket("bin", 16)
                                .bucket("fixed", 16)
                                .bucket("tiny", 16)
                                .bucket("small", 16)
                                .bucket("ch", 16)
                                .bucket("vc", 16)
                                .bucket("nested.inner_str", 16)
                                .bucket("ts_ns", 16)
                                .bucket("tstz_ns", 16)
                                .build()),
                Arguments.of(
                        "truncate",
                        PartitionSpec.builderFor(SCHEMA)
                                .truncate("i", 10)
                                .truncate("l", 100)
                                .truncate("s", 3)
                                .truncate("dec9", 50)
                                .truncate("dec38", 7)
                                .truncate("bin", 4)
                                .truncate("tiny", 3)
                                .truncate("small", 7)
                                .truncate("ch", 2)
                                .truncate("vc", 2)
                                .truncate("nested.inner_int", 5)
                                .build()),
                Arguments.of(
                        "year",
                        PartitionSpec.builderFor(SCHEMA)
                                .year("date")
                                .year("ts")
                                .year("tstz")
                                .year("nested.inner_ts")
                                .year("ts_ns")
                                .build()),
                Arguments.of(
                        "month",
                        PartitionSpec.builderFor(SCHEMA)
                                .month("date")
                                .month("ts")
                                .month("tstz")
                                .month("tstz_ns")
                                .build()),
                Arguments.of(
                        "day",
                        PartitionSpec.builderFor(SCHEMA)
                                .day("date")
                                .day("ts")
                                .day("tstz")
                                .day("nested.inner_ts")
                                .day("ts_ns")
                                .day("tstz_ns")
                                .build()),
                Arguments.of(
                        "hour",
                        PartitionSpec.builderFor(SCHEMA)
                                .hour("ts")
                                .hour("tstz")
                                .hour("nested.inner_ts")
                                .hour("ts_ns")
                                .build()),
                Arguments.of(
                        "void",
                        PartitionSpec.builderFor(SCHEMA)
                                .alwaysNull("i")
                                .alwaysNull("s")
                                .identity("id")
                                .build()));
    }

    private static PartitionSpec identitySpec() {
        PartitionSpec.Builder builder = PartitionSpec.builderFor(SCHEMA);
        for (Types.NestedField column : SCHEMA.columns()) {
            if (column.type().isPrimitiveType()) {
                builder.identity(column.name());
            }
        }
        return builder.identity("nested.inner_int")
                .identity("nested.inner_ts")
                .identity("nested.inner_str")
                .identity("nested.inner_deep.x")
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void partitionKeyMatchesGenericRecords(String name, PartitionSpec spec) {
        List<Record> records = records(ROWS, 31L);
        PartitionKey expectedKey = new PartitionKey(spec, SCHEMA);
        PartitionKey actualKey = new PartitionKey(spec, SCHEMA);
        InternalRecordWrapper recordWrapper = new InternalRecordWrapper(SCHEMA.asStruct());
        RowDataStructLike rowWrapper = new RowDataStructLike(SCHEMA.asStruct(), ROW_TYPE);

        for (int r = 0; r < records.size(); r++) {
            Record record = records.get(r);
            expectedKey.partition(recordWrapper.wrap(record));
            actualKey.partition(rowWrapper.wrap(toFlinkRow(record)));
            for (int p = 0; p < spec.fields().size(); p++) {
                assertThat(actualKey.get(p, Object.class))
                        .as("row %d, partition field %s", r, spec.fields().get(p).name())
                        .isEqualTo(expectedKey.get(p, Object.class));
            }
            assertThat(actualKey).isEqualTo(expectedKey);
        }
    }

    @Test
    void equalityKeyProjectionMatchesGenericRecords() {
        Schema deleteSchema =
                SCHEMA.select("id", "s", "tiny", "nested.inner_str", "nested.inner_deep.x");
        StructProjection expected = StructProjection.create(SCHEMA, deleteSchema);
        StructProjection actual = StructProjection.create(SCHEMA, deleteSchema);
        InternalRecordWrapper recordWrapper = new InternalRecordWrapper(SCHEMA.asStruct());
        RowDataStructLike rowWrapper = new RowDataStructLike(SCHEMA.asStruct(), ROW_TYPE);

        for (Record record : records(100, 5L)) {
            expected.wrap(recordWrapper.wrap(record));
            actual.wrap(rowWrapper.wrap(toFlinkRow(record)));
            assertThat(flatten(actual)).isEqualTo(flatten(expected));
        }
    }

    @Test
    void convertsValuesToIcebergInternalRepresentation() {
        Record record = records(1, 77L).get(0);
        record.setField("time", LocalTime.of(1, 2, 3, 456_000_000));
        record.setField("ts", LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
        record.setField("uuid", new UUID(1, 2));
        record.setField("dec9", new BigDecimal("-1234567.89"));
        record.setField("fixed", new byte[] {1, 2, 3, 4, 5, 6, 7});
        record.setField("ts_ns", LocalDateTime.of(1970, 1, 1, 0, 0, 0, 123_456_789));
        RowDataStructLike view =
                new RowDataStructLike(SCHEMA.asStruct(), ROW_TYPE).wrap(toFlinkRow(record));

        assertThat(view.size()).isEqualTo(SCHEMA.columns().size());
        assertThat(view.get(7, Long.class)).isEqualTo(3_723_456_000L);
        assertThat(view.get(8, Long.class)).isEqualTo(-1L);
        assertThat(view.get(11, UUID.class)).isEqualTo(new UUID(1, 2));
        assertThat(view.get(12, ByteBuffer.class))
                .isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7}));
        assertThat(view.get(14, BigDecimal.class)).isEqualTo(new BigDecimal("-1234567.89"));
        assertThat(view.get(16, Object.class)).isInstanceOf(Integer.class);
        assertThat(view.get(17, Integer.class)).isEqualTo(record.getField("small"));
        assertThat(view.get(21, Long.class)).isEqualTo(123_456_789L);
    }

    @Test
    void nestedViewIsReusedAndWrapReturnsThis() {
        RowDataStructLike view = new RowDataStructLike(SCHEMA.asStruct(), ROW_TYPE);
        List<Record> records = records(50, 3L);
        RowData withNested =
                records.stream()
                        .filter(r -> r.getField("nested") != null)
                        .map(RowDataStructLikeTest::toFlinkRow)
                        .findFirst()
                        .orElseThrow();
        assertThat(view.wrap(withNested)).isSameAs(view);
        StructLike first = view.get(20, StructLike.class);
        StructLike second = view.get(20, StructLike.class);
        assertThat(first).isSameAs(second);
        assertThat(first.get(2, CharSequence.class).toString())
                .isEqualTo(withNestedRecord(records).getField("inner_str"));
    }

    @Test
    void copiesListsAndMapsWithNestedStructs() {
        Types.StructType struct =
                Types.StructType.of(
                        optional(1, "ints", Types.ListType.ofOptional(2, Types.IntegerType.get())),
                        optional(
                                3,
                                "points",
                                Types.ListType.ofRequired(
                                        4,
                                        Types.StructType.of(
                                                required(5, "x", Types.IntegerType.get())))),
                        optional(
                                6,
                                "m",
                                Types.MapType.ofOptional(
                                        7, 8, Types.StringType.get(), Types.DateType.get())));
        RowType rowType = (RowType) flinkType(struct, true, false);
        Record record = GenericRecord.create(struct);
        record.set(0, Arrays.asList(1, null, 3));
        Record p1 =
                GenericRecord.create(
                        struct.fields().get(1).type().asListType().elementType().asStructType());
        p1.set(0, 10);
        Record p2 = p1.copy();
        p2.set(0, 20);
        record.set(1, List.of(p1, p2));
        record.set(2, Map.of("a", LocalDate.ofEpochDay(3)));
        RowDataStructLike view =
                new RowDataStructLike(struct, rowType)
                        .wrap(RowDataConverter.fromRecord(struct, record));

        assertThat(view.get(0, List.class)).containsExactly(1, null, 3);
        List<?> points = view.get(1, List.class);
        assertThat(points).hasSize(2);
        assertThat(((StructLike) points.get(0)).get(0, Integer.class)).isEqualTo(10);
        assertThat(((StructLike) points.get(1)).get(0, Integer.class)).isEqualTo(20);
        assertThat(view.get(2, Map.class)).containsExactly(Map.entry("a", 3));
    }

    @Test
    void rejectsIncompatibleTypesNamingTheColumn() {
        Types.StructType struct =
                Types.StructType.of(
                        optional(1, "a", Types.IntegerType.get()),
                        optional(
                                2,
                                "n",
                                Types.StructType.of(optional(3, "s", Types.StringType.get()))));
        RowType wrongNested =
                RowType.of(
                        new LogicalType[] {
                            new IntType(),
                            RowType.of(new LogicalType[] {new IntType()}, new String[] {"s"})
                        },
                        new String[] {"a", "n"});
        assertThatThrownBy(() -> new RowDataStructLike(struct, wrongNested))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'n.s'")
                .hasMessageContaining("INT")
                .hasMessageContaining("string")
                .hasMessageContaining("allowed Flink types: [CHAR, VARCHAR]");

        RowType bigintForInt =
                RowType.of(
                        new LogicalType[] {new BigIntType(), RowType.of(new VarCharType())},
                        new String[] {"a", "n"});
        assertThatThrownBy(() -> new RowDataStructLike(struct, bigintForInt))
                .hasMessageContaining("'a'")
                .hasMessageContaining("BIGINT");

        RowType tooFew = RowType.of(new LogicalType[] {new IntType()}, new String[] {"a"});
        assertThatThrownBy(() -> new RowDataStructLike(struct, tooFew))
                .hasMessageContaining(
                        "the Iceberg struct has 2 fields [a, n] but the Flink row type has 1 fields [a]");

        Types.StructType decimal =
                Types.StructType.of(optional(1, "d", Types.DecimalType.of(9, 2)));
        RowType wrongScale =
                RowType.of(new LogicalType[] {new DecimalType(9, 3)}, new String[] {"d"});
        assertThatThrownBy(() -> new RowDataStructLike(decimal, wrongScale))
                .hasMessageContaining("'d'")
                .hasMessageContaining("scale must be 2");
    }

    @Test
    void isReadOnly() {
        RowDataStructLike view = new RowDataStructLike(SCHEMA.asStruct(), ROW_TYPE);
        assertThatThrownBy(() -> view.set(0, 1L))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("read-only");
    }

    private static Record withNestedRecord(List<Record> records) {
        return records.stream()
                .filter(r -> r.getField("nested") != null)
                .findFirst()
                .map(r -> (Record) r.getField("nested"))
                .orElseThrow();
    }

    private static List<Object> flatten(StructLike struct) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < struct.size(); i++) {
            Object value = struct.get(i, Object.class);
            if (value instanceof StructLike) {
                values.add(flatten((StructLike) value));
            } else {
                values.add(value instanceof CharSequence ? value.toString() : value);
            }
        }
        return values;
    }

    /**
     * Random records, with the TINYINT/SMALLINT/CHAR/VARCHAR columns kept within what their Flink
     * types hold.
     */
    private static List<Record> records(int count, long seed) {
        List<Record> records = RandomRecords.generate(SCHEMA, count, seed);
        for (Record record : records) {
            clamp(record, "tiny", value -> (int) (byte) (int) (Integer) value);
            clamp(record, "small", value -> (int) (short) (int) (Integer) value);
            clamp(record, "ch", value -> prefix((String) value, 5));
            clamp(record, "vc", value -> prefix((String) value, 10));
        }
        return records;
    }

    private static void clamp(Record record, String field, UnaryOperator<Object> clamp) {
        Object value = record.getField(field);
        if (value != null) {
            record.setField(field, clamp.apply(value));
        }
    }

    private static String prefix(String value, int codePoints) {
        return value.codePointCount(0, value.length()) <= codePoints
                ? value
                : value.substring(0, value.offsetByCodePoints(0, codePoints));
    }

    /** The Flink row of a record, holding byte/short in the TINYINT/SMALLINT columns. */
    private static RowData toFlinkRow(Record record) {
        GenericRowData row = (GenericRowData) RowDataConverter.fromRecord(SCHEMA, record);
        int tiny = SCHEMA.columns().indexOf(SCHEMA.findField("tiny"));
        int small = SCHEMA.columns().indexOf(SCHEMA.findField("small"));
        if (row.getField(tiny) != null) {
            row.setField(tiny, ((Integer) row.getField(tiny)).byteValue());
        }
        row.setField(small, ((Integer) row.getField(small)).shortValue());
        return row;
    }

    /**
     * Maps Iceberg types to Flink logical types by the shared conventions (FlinkSchemaUtil is not
     * used here).
     */
    private static LogicalType flinkType(Type type, boolean nullable, boolean topLevel) {
        switch (type.typeId()) {
            case BOOLEAN:
                return new BooleanType(nullable);
            case INTEGER:
                return new IntType(nullable);
            case LONG:
                return new BigIntType(nullable);
            case FLOAT:
                return new FloatType(nullable);
            case DOUBLE:
                return new DoubleType(nullable);
            case DATE:
                return new DateType(nullable);
            case TIME:
                return new TimeType(nullable, 3);
            case TIMESTAMP:
                return ((Types.TimestampType) type).shouldAdjustToUTC()
                        ? new LocalZonedTimestampType(nullable, 6)
                        : new TimestampType(nullable, 6);
            case TIMESTAMP_NANO:
                return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
                        ? new LocalZonedTimestampType(nullable, 9)
                        : new TimestampType(nullable, 9);
            case STRING:
                return new VarCharType(nullable, VarCharType.MAX_LENGTH);
            case UUID:
                return new BinaryType(nullable, 16);
            case FIXED:
                return new BinaryType(nullable, ((Types.FixedType) type).length());
            case BINARY:
                return new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return new DecimalType(nullable, decimal.precision(), decimal.scale());
            case LIST:
                Types.ListType list = type.asListType();
                return new ArrayType(
                        nullable, flinkType(list.elementType(), list.isElementOptional(), false));
            case MAP:
                Types.MapType map = type.asMapType();
                return new MapType(
                        nullable,
                        flinkType(map.keyType(), false, false),
                        flinkType(map.valueType(), map.isValueOptional(), false));
            case STRUCT:
                List<RowType.RowField> fields = new ArrayList<>();
                for (Types.NestedField field : type.asStructType().fields()) {
                    LogicalType override = topLevel ? FLINK_OVERRIDES.get(field.name()) : null;
                    fields.add(
                            new RowType.RowField(
                                    field.name(),
                                    override != null
                                            ? override.copy(field.isOptional())
                                            : flinkType(field.type(), field.isOptional(), false)));
                }
                return new RowType(nullable, fields);
            default:
                throw new IllegalArgumentException("Unsupported type " + type);
        }
    }
}
