package dev.icebergflink.testing;

import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Deep, type-driven equality assertions for Flink {@link RowData}, independent of the RowData
 * implementation ({@code RowData.equals} differs between generic, binary, reused and columnar
 * rows).
 *
 * <p>Floats and doubles compare bitwise (so NaN equals NaN, and 0.0 differs from -0.0), binary by
 * content, decimals by value and scale, maps by key regardless of entry order. A failure names the
 * row and the field path, for example {@code row 17, field address.zip: expected 1234 but was 1235}
 * or {@code row 3, field points[2].y: ...}.
 */
public final class RowDataAssert {

    /** Asserts that both lists hold deeply equal rows of {@code schema}, in the same order. */
    public static void assertRowsEqual(
            Schema schema, List<RowData> expected, List<RowData> actual) {
        assertRowsEqual(schema.asStruct(), expected, actual);
    }

    /** Asserts that both lists hold deeply equal rows of {@code type}, in the same order. */
    public static void assertRowsEqual(
            Types.StructType type, List<RowData> expected, List<RowData> actual) {
        if (expected.size() != actual.size()) {
            throw new AssertionError(
                    "expected " + expected.size() + " rows but was " + actual.size() + " rows");
        }
        for (int i = 0; i < expected.size(); i++) {
            assertRowEquals(type, expected.get(i), actual.get(i), "row " + i + ", ");
        }
    }

    /** Asserts that two rows of {@code type} are deeply equal. */
    public static void assertRowEquals(Types.StructType type, RowData expected, RowData actual) {
        assertRowEquals(type, expected, actual, "");
    }

    /**
     * Asserts that a Flink row holds the same values as an Iceberg generic record of {@code type}.
     */
    public static void assertRecordMatchesRow(
            Types.StructType type, Record expected, RowData actual) {
        assertRowEquals(type, RowDataConverter.fromRecord(type, expected), actual, "");
    }

    /**
     * Asserts that Flink rows hold the same values as Iceberg generic records of {@code schema}, in
     * order.
     */
    public static void assertRecordsMatchRows(
            Schema schema, List<Record> expected, List<RowData> actual) {
        assertRowsEqual(schema, RowDataConverter.fromRecords(schema, expected), actual);
    }

    /**
     * Returns whether two internal values of {@code type} are deeply equal under the rules above.
     */
    public static boolean valuesEqual(Type type, Object expected, Object actual) {
        return diff(type, expected, actual, "") == null;
    }

    private static void assertRowEquals(
            Types.StructType type, RowData expected, RowData actual, String prefix) {
        String difference = diff(type, expected, actual, "");
        if (difference != null) {
            throw new AssertionError(prefix + difference);
        }
    }

    /** Returns null when equal, otherwise a description of the first difference. */
    private static String diff(Type type, Object expected, Object actual, String path) {
        if (expected == null || actual == null) {
            return expected == actual ? null : mismatch(type, expected, actual, path);
        }
        switch (type.typeId()) {
            case STRUCT:
                return diffStruct(type.asStructType(), (RowData) expected, (RowData) actual, path);
            case LIST:
                return diffList(type.asListType(), (ArrayData) expected, (ArrayData) actual, path);
            case MAP:
                return diffMap(type.asMapType(), (MapData) expected, (MapData) actual, path);
            default:
                return primitiveEquals(type, expected, actual)
                        ? null
                        : mismatch(type, expected, actual, path);
        }
    }

    private static String diffStruct(
            Types.StructType type, RowData expected, RowData actual, String path) {
        List<Types.NestedField> fields = type.fields();
        if (actual.getArity() != fields.size() || expected.getArity() != fields.size()) {
            return where(path)
                    + "expected arity "
                    + fields.size()
                    + " but expected row has "
                    + expected.getArity()
                    + " and actual row has "
                    + actual.getArity();
        }
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            String difference =
                    diff(
                            field.type(),
                            RowDataValues.get(field.type(), expected, i),
                            RowDataValues.get(field.type(), actual, i),
                            path.isEmpty() ? field.name() : path + "." + field.name());
            if (difference != null) {
                return difference;
            }
        }
        return null;
    }

    private static String diffList(
            Types.ListType type, ArrayData expected, ArrayData actual, String path) {
        if (expected.size() != actual.size()) {
            return where(path)
                    + "expected list of size "
                    + expected.size()
                    + " but was size "
                    + actual.size()
                    + ": expected "
                    + format(type, expected)
                    + " but was "
                    + format(type, actual);
        }
        Type elementType = type.elementType();
        for (int i = 0; i < expected.size(); i++) {
            String difference =
                    diff(
                            elementType,
                            RowDataValues.get(elementType, expected, i),
                            RowDataValues.get(elementType, actual, i),
                            path + "[" + i + "]");
            if (difference != null) {
                return difference;
            }
        }
        return null;
    }

    private static String diffMap(
            Types.MapType type, MapData expected, MapData actual, String path) {
        if (expected.size() != actual.size()) {
            return where(path)
                    + "expected map of size "
                    + expected.size()
                    + " but was size "
                    + actual.size()
                    + ": expected "
                    + format(type, expected)
                    + " but was "
                    + format(type, actual);
        }
        Type keyType = type.keyType();
        Type valueType = type.valueType();
        ArrayData expectedKeys = expected.keyArray();
        ArrayData expectedValues = expected.valueArray();
        ArrayData actualKeys = actual.keyArray();
        ArrayData actualValues = actual.valueArray();
        boolean[] matched = new boolean[actual.size()];
        for (int i = 0; i < expected.size(); i++) {
            Object key = RowDataValues.get(keyType, expectedKeys, i);
            int found = -1;
            for (int j = 0; j < actual.size() && found < 0; j++) {
                if (!matched[j]
                        && diff(keyType, key, RowDataValues.get(keyType, actualKeys, j), "")
                                == null) {
                    found = j;
                }
            }
            String keyPath = path + "[" + format(keyType, key) + "]";
            if (found < 0) {
                return where(keyPath)
                        + "expected key is missing; actual map was "
                        + format(type, actual);
            }
            matched[found] = true;
            String difference =
                    diff(
                            valueType,
                            RowDataValues.get(valueType, expectedValues, i),
                            RowDataValues.get(valueType, actualValues, found),
                            keyPath);
            if (difference != null) {
                return difference;
            }
        }
        return null;
    }

    private static boolean primitiveEquals(Type type, Object expected, Object actual) {
        switch (type.typeId()) {
            case FLOAT:
                return Float.floatToIntBits((Float) expected)
                        == Float.floatToIntBits((Float) actual);
            case DOUBLE:
                return Double.doubleToLongBits((Double) expected)
                        == Double.doubleToLongBits((Double) actual);
            case STRING:
                return expected.toString().equals(actual.toString());
            case UUID:
            case FIXED:
            case BINARY:
                return java.util.Arrays.equals((byte[]) expected, (byte[]) actual);
            case DECIMAL:
                return ((DecimalData) expected)
                        .toBigDecimal()
                        .equals(((DecimalData) actual).toBigDecimal());
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                TimestampData expectedTs = (TimestampData) expected;
                TimestampData actualTs = (TimestampData) actual;
                return expectedTs.getMillisecond() == actualTs.getMillisecond()
                        && expectedTs.getNanoOfMillisecond() == actualTs.getNanoOfMillisecond();
            default:
                return expected.equals(actual);
        }
    }

    private static String mismatch(Type type, Object expected, Object actual, String path) {
        return where(path)
                + "expected "
                + format(type, expected)
                + " but was "
                + format(type, actual);
    }

    private static String where(String path) {
        return path.isEmpty() ? "" : "field " + path + ": ";
    }

    /** Renders an internal value of {@code type} readably, for failure messages. */
    public static String format(Type type, Object value) {
        if (value == null) {
            return "null";
        }
        switch (type.typeId()) {
            case STRING:
                return "\"" + ((StringData) value) + "\"";
            case UUID:
                return org.apache.iceberg.util.UUIDUtil.convert((byte[]) value).toString();
            case FIXED:
            case BINARY:
                return hex((byte[]) value);
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal().toPlainString();
            case DATE:
                return java.time.LocalDate.ofEpochDay((Integer) value) + " (" + value + ")";
            case TIME:
                return java.time.LocalTime.ofNanoOfDay((Integer) value * 1_000_000L)
                        + " ("
                        + value
                        + " ms)";
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return value.toString();
            case STRUCT:
                {
                    RowData row = (RowData) value;
                    StringBuilder builder = new StringBuilder("{");
                    List<Types.NestedField> fields = type.asStructType().fields();
                    for (int i = 0; i < fields.size() && i < row.getArity(); i++) {
                        Types.NestedField field = fields.get(i);
                        builder.append(i == 0 ? "" : ", ")
                                .append(field.name())
                                .append('=')
                                .append(
                                        format(
                                                field.type(),
                                                RowDataValues.get(field.type(), row, i)));
                    }
                    return builder.append('}').toString();
                }
            case LIST:
                {
                    ArrayData array = (ArrayData) value;
                    Type elementType = type.asListType().elementType();
                    StringBuilder builder = new StringBuilder("[");
                    for (int i = 0; i < array.size(); i++) {
                        builder.append(i == 0 ? "" : ", ")
                                .append(
                                        format(
                                                elementType,
                                                RowDataValues.get(elementType, array, i)));
                    }
                    return builder.append(']').toString();
                }
            case MAP:
                {
                    MapData map = (MapData) value;
                    Types.MapType mapType = type.asMapType();
                    StringBuilder builder = new StringBuilder("{");
                    for (int i = 0; i < map.size(); i++) {
                        builder.append(i == 0 ? "" : ", ")
                                .append(
                                        format(
                                                mapType.keyType(),
                                                RowDataValues.get(
                                                        mapType.keyType(), map.keyArray(), i)))
                                .append(" -> ")
                                .append(
                                        format(
                                                mapType.valueType(),
                                                RowDataValues.get(
                                                        mapType.valueType(), map.valueArray(), i)));
                    }
                    return builder.append('}').toString();
                }
            default:
                return String.valueOf(value);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder builder = new StringBuilder("0x");
        for (byte b : bytes) {
            builder.append(Character.forDigit((b >> 4) & 0xF, 16))
                    .append(Character.forDigit(b & 0xF, 16));
        }
        return builder.toString();
    }

    private RowDataAssert() {}
}
