package dev.icebergflink.data.avro;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.UUID;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.UUIDUtil;

/**
 * Converts a field's initial default, held in Iceberg's internal representation (the one of {@code
 * Types.NestedField#initialDefault()}), into the Flink internal value that a row of the shared
 * conventions holds, so that columns added with a default read as that default from files written
 * before they existed.
 */
final class FlinkDefaultValues {

    private FlinkDefaultValues() {}

    static Object convert(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case BOOLEAN:
            case INTEGER:
            case LONG:
            case FLOAT:
            case DOUBLE:
            case DATE:
                return value;
            case TIME:
                return (int) Math.floorDiv((Long) value, 1_000L);
            case TIMESTAMP:
                return fromEpoch((Long) value, 1_000L);
            case TIMESTAMP_NANO:
                return fromEpoch((Long) value, 1_000_000L);
            case STRING:
                return StringData.fromString(value.toString());
            case UUID:
                return value instanceof UUID
                        ? UUIDUtil.convert((UUID) value)
                        : ByteBuffers.toByteArray((ByteBuffer) value);
            case FIXED:
            case BINARY:
                return value instanceof ByteBuffer
                        ? ByteBuffers.toByteArray((ByteBuffer) value)
                        : ((byte[]) value).clone();
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return DecimalData.fromBigDecimal(
                        (BigDecimal) value, decimal.precision(), decimal.scale());
            default:
                throw new UnsupportedOperationException(
                        "Cannot read a default value of type " + type + " into Flink rows");
        }
    }

    private static TimestampData fromEpoch(long value, long unitsPerMilli) {
        return TimestampData.fromEpochMillis(
                Math.floorDiv(value, unitsPerMilli),
                (int) (Math.floorMod(value, unitsPerMilli) * (1_000_000L / unitsPerMilli)));
    }
}
