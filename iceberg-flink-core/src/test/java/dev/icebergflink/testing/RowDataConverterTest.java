package dev.icebergflink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RowDataConverterTest {

    static Stream<Arguments> schemas() {
        Stream<Arguments> named =
                Stream.of(
                        Arguments.of("ALL_PRIMITIVES", TestSchemas.ALL_PRIMITIVES),
                        Arguments.of("NESTED", TestSchemas.NESTED),
                        Arguments.of("V3_PRIMITIVES", TestSchemas.V3_PRIMITIVES));
        Stream<Arguments> random =
                Stream.of(1L, 2L, 3L, 4L, 5L)
                        .map(
                                seed ->
                                        Arguments.of(
                                                "random-" + seed,
                                                RandomSchemaGenerator.generate(seed)));
        Stream<Arguments> randomV3 =
                Stream.of(Arguments.of("random-v3", RandomSchemaGenerator.generate(42L, 20, true)));
        return Stream.concat(named, Stream.concat(random, randomV3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void recordToRowToRecordIsIdentity(String name, Schema schema) {
        List<Record> records = RandomRecords.generate(schema, 200, 7L);
        for (Record record : records) {
            RowData row = RowDataConverter.fromRecord(schema, record);
            Record back = RowDataConverter.toRecord(schema, row);
            assertThat(comparable(schema.asStruct(), back))
                    .as("record round trip for schema %s", name)
                    .isEqualTo(comparable(schema.asStruct(), record));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void rowToRecordToRowIsIdentity(String name, Schema schema) {
        List<RowData> rows = RandomRowData.generate(schema, 200, 11L);
        List<RowData> back =
                RowDataConverter.fromRecords(schema, RowDataConverter.toRecords(schema, rows));
        RowDataAssert.assertRowsEqual(schema, rows, back);
    }

    /**
     * Records compare with {@code equals} except for byte[] (fixed) and NaN floats; this maps them
     * to value-equal forms.
     */
    private static Object comparable(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case FIXED:
                return ByteBuffer.wrap((byte[]) value);
            case FLOAT:
                return Float.floatToIntBits((Float) value);
            case DOUBLE:
                return Double.doubleToLongBits((Double) value);
            case STRUCT:
                {
                    Record record = (Record) value;
                    List<Types.NestedField> fields = type.asStructType().fields();
                    Object[] values = new Object[fields.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = comparable(fields.get(i).type(), record.get(i));
                    }
                    return Arrays.asList(values);
                }
            case LIST:
                {
                    List<Object> list = new ArrayList<>();
                    for (Object element : (List<?>) value) {
                        list.add(comparable(type.asListType().elementType(), element));
                    }
                    return list;
                }
            case MAP:
                {
                    Map<Object, Object> map = new HashMap<>();
                    ((Map<?, ?>) value)
                            .forEach(
                                    (k, v) ->
                                            map.put(
                                                    comparable(type.asMapType().keyType(), k),
                                                    comparable(type.asMapType().valueType(), v)));
                    return map;
                }
            default:
                return value;
        }
    }
}
