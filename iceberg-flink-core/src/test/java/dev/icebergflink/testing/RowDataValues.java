package dev.icebergflink.testing;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Reads one Flink internal value out of a {@link RowData} or {@link ArrayData}, choosing the getter
 * from the Iceberg type (the shared conventions table), so test code works on any RowData
 * implementation (generic, binary, columnar, reused) without knowing Flink logical types.
 */
public final class RowDataValues {

    /** Returns the internal value at {@code pos}, or {@code null} when the position is null. */
    public static Object get(Type type, RowData row, int pos) {
        if (row.isNullAt(pos)) {
            return null;
        }
        switch (type.typeId()) {
            case BOOLEAN:
                return row.getBoolean(pos);
            case INTEGER:
            case DATE:
            case TIME:
                return row.getInt(pos);
            case LONG:
                return row.getLong(pos);
            case FLOAT:
                return row.getFloat(pos);
            case DOUBLE:
                return row.getDouble(pos);
            case TIMESTAMP:
                return row.getTimestamp(pos, 6);
            case TIMESTAMP_NANO:
                return row.getTimestamp(pos, 9);
            case STRING:
                return row.getString(pos);
            case UUID:
            case FIXED:
            case BINARY:
                return row.getBinary(pos);
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return row.getDecimal(pos, decimal.precision(), decimal.scale());
            case STRUCT:
                return row.getRow(pos, type.asStructType().fields().size());
            case LIST:
                return row.getArray(pos);
            case MAP:
                return row.getMap(pos);
            default:
                throw new UnsupportedOperationException(
                        "Unsupported Iceberg type in test toolkit: " + type);
        }
    }

    /** Returns the internal element at {@code pos}, or {@code null} when the element is null. */
    public static Object get(Type type, ArrayData array, int pos) {
        if (array.isNullAt(pos)) {
            return null;
        }
        switch (type.typeId()) {
            case BOOLEAN:
                return array.getBoolean(pos);
            case INTEGER:
            case DATE:
            case TIME:
                return array.getInt(pos);
            case LONG:
                return array.getLong(pos);
            case FLOAT:
                return array.getFloat(pos);
            case DOUBLE:
                return array.getDouble(pos);
            case TIMESTAMP:
                return array.getTimestamp(pos, 6);
            case TIMESTAMP_NANO:
                return array.getTimestamp(pos, 9);
            case STRING:
                return array.getString(pos);
            case UUID:
            case FIXED:
            case BINARY:
                return array.getBinary(pos);
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return array.getDecimal(pos, decimal.precision(), decimal.scale());
            case STRUCT:
                return array.getRow(pos, type.asStructType().fields().size());
            case LIST:
                return array.getArray(pos);
            case MAP:
                return array.getMap(pos);
            default:
                throw new UnsupportedOperationException(
                        "Unsupported Iceberg type in test toolkit: " + type);
        }
    }

    private RowDataValues() {}
}
