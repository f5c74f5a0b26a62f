package dev.icebergflink.data;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.UUIDUtil;

/**
 * Converts values from Iceberg's internal representation (partition values, metadata columns) into
 * the values Flink keeps inside {@code RowData}, so that readers can fill constant columns.
 *
 * <p>Use it with {@code PartitionUtil.constantsMap(task, RowDataConstants::convert)}.
 */
public final class RowDataConstants {

    private static final long MICROS_PER_MILLI = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_MICRO = 1_000L;

    private RowDataConstants() {}

    /** Converts an internal Iceberg value of the given type into its RowData value. */
    public static Object convert(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case STRING:
                return StringData.fromString(value.toString());
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return DecimalData.fromBigDecimal(
                        (BigDecimal) value, decimal.precision(), decimal.scale());
            case FIXED:
            case BINARY:
                return value instanceof ByteBuffer
                        ? ByteBuffers.toByteArray((ByteBuffer) value)
                        : value;
            case UUID:
                return value instanceof UUID ? UUIDUtil.convert((UUID) value) : value;
            case TIME:
                return (int) ((Long) value / MICROS_PER_MILLI);
            case TIMESTAMP:
                return fromMicros((Long) value);
            case TIMESTAMP_NANO:
                return fromNanos((Long) value);
            case STRUCT:
                return convertStruct(type.asStructType(), (StructLike) value);
            default:
                return value;
        }
    }

    private static GenericRowData convertStruct(Types.StructType type, StructLike struct) {
        List<Types.NestedField> fields = type.fields();
        GenericRowData row = new GenericRowData(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            Type fieldType = fields.get(i).type();
            row.setField(i, convert(fieldType, struct.get(i, fieldType.typeId().javaClass())));
        }
        return row;
    }

    /** A TimestampData for microseconds since the epoch. */
    public static TimestampData fromMicros(long micros) {
        long millis = Math.floorDiv(micros, MICROS_PER_MILLI);
        int nanosOfMilli = (int) (Math.floorMod(micros, MICROS_PER_MILLI) * NANOS_PER_MICRO);
        return TimestampData.fromEpochMillis(millis, nanosOfMilli);
    }

    /** A TimestampData for nanoseconds since the epoch. */
    public static TimestampData fromNanos(long nanos) {
        long millis = Math.floorDiv(nanos, NANOS_PER_MILLI);
        int nanosOfMilli = (int) Math.floorMod(nanos, NANOS_PER_MILLI);
        return TimestampData.fromEpochMillis(millis, nanosOfMilli);
    }
}
