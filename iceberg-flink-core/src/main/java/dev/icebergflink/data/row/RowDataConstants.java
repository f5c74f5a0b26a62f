package dev.icebergflink.data.row;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.UUIDUtil;

/**
 * Converts constant column values (identity partition values, metadata columns such as {@code
 * _file}, and field initial defaults) into Flink's internal representation, so that a constant
 * column holds the same classes as a column read from a file. Every format reader and the source
 * use it; pass it to {@code PartitionUtil.constantsMap(task, RowDataConstants::convert)}.
 *
 * <p>Callers hand readers constants in Iceberg's internal representation (CharSequence, ByteBuffer,
 * BigDecimal, microseconds as Long, StructLike, ...) or, equally, values that already are Flink
 * internal values; both are accepted, so conversion is idempotent.
 */
@Internal
public final class RowDataConstants {

    private RowDataConstants() {}

    /**
     * Converts every constant whose field id is in {@code schema}; others are kept as they are.
     * Null values are kept, as they are meaningful (a null partition value).
     */
    public static Map<Integer, Object> convertAll(Schema schema, Map<Integer, ?> idToConstant) {
        Map<Integer, Object> converted = new HashMap<>();
        if (idToConstant == null) {
            return converted;
        }
        for (Map.Entry<Integer, ?> entry : idToConstant.entrySet()) {
            Type type = schema.findType(entry.getKey());
            converted.put(
                    entry.getKey(),
                    type == null ? entry.getValue() : convert(type, entry.getValue()));
        }
        return converted;
    }

    /** Converts one value of Iceberg type {@code type} into Flink's internal representation. */
    public static Object convert(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case BOOLEAN:
            case INTEGER:
            case FLOAT:
            case DOUBLE:
                return value;
            case LONG:
                return value instanceof Integer ? Long.valueOf((Integer) value) : value;
            case DATE:
                return value instanceof LocalDate ? (int) ((LocalDate) value).toEpochDay() : value;
            case TIME:
                return time(value);
            case TIMESTAMP:
                return timestamp(value, 1_000L);
            case TIMESTAMP_NANO:
                return timestamp(value, 1L);
            case STRING:
                return value instanceof StringData
                        ? value
                        : StringData.fromString(value.toString());
            case UUID:
                if (value instanceof UUID) {
                    return UUIDUtil.convert((UUID) value);
                }
                return bytes(value);
            case FIXED:
            case BINARY:
                return bytes(value);
            case DECIMAL:
                if (value instanceof BigDecimal) {
                    Types.DecimalType decimal = (Types.DecimalType) type;
                    return DecimalData.fromBigDecimal(
                            (BigDecimal) value, decimal.precision(), decimal.scale());
                }
                return value;
            case STRUCT:
                return value instanceof StructLike
                        ? struct(type.asStructType(), (StructLike) value)
                        : value;
            case LIST:
                return value instanceof List ? list(type.asListType(), (List<?>) value) : value;
            case MAP:
                return value instanceof Map ? map(type.asMapType(), (Map<?, ?>) value) : value;
            default:
                throw new UnsupportedOperationException(
                        "Cannot convert a constant of Iceberg type " + type + " for Flink");
        }
    }

    private static Object time(Object value) {
        if (value instanceof Long) {
            // Iceberg's internal time is microseconds of the day; Flink holds milliseconds.
            return (int) ((Long) value / 1_000L);
        } else if (value instanceof LocalTime) {
            return (int) (((LocalTime) value).toNanoOfDay() / 1_000_000L);
        }
        return value;
    }

    /** A TimestampData for microseconds since the epoch. */
    public static TimestampData fromMicros(long micros) {
        return fromEpochUnits(micros, 1_000L);
    }

    /** A TimestampData for nanoseconds since the epoch. */
    public static TimestampData fromNanos(long nanos) {
        return fromEpochUnits(nanos, 1L);
    }

    private static TimestampData fromEpochUnits(long units, long nanosPerUnit) {
        long unitsPerMilli = 1_000_000L / nanosPerUnit;
        return TimestampData.fromEpochMillis(
                Math.floorDiv(units, unitsPerMilli),
                (int) (Math.floorMod(units, unitsPerMilli) * nanosPerUnit));
    }

    private static Object timestamp(Object value, long nanosPerUnit) {
        if (value instanceof Long) {
            return fromEpochUnits((Long) value, nanosPerUnit);
        } else if (value instanceof LocalDateTime) {
            return TimestampData.fromLocalDateTime((LocalDateTime) value);
        } else if (value instanceof OffsetDateTime) {
            return TimestampData.fromInstant(((OffsetDateTime) value).toInstant());
        }
        return value;
    }

    private static Object bytes(Object value) {
        if (value instanceof ByteBuffer) {
            return ByteBuffers.toByteArray((ByteBuffer) value);
        }
        return value;
    }

    private static GenericRowData struct(Types.StructType type, StructLike struct) {
        List<Types.NestedField> fields = type.fields();
        GenericRowData row = new GenericRowData(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            row.setField(i, convert(fields.get(i).type(), struct.get(i, Object.class)));
        }
        return row;
    }

    private static GenericArrayData list(Types.ListType type, List<?> list) {
        Object[] elements = new Object[list.size()];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = convert(type.elementType(), list.get(i));
        }
        return new GenericArrayData(elements);
    }

    private static GenericMapData map(Types.MapType type, Map<?, ?> map) {
        Map<Object, Object> converted = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            converted.put(
                    convert(type.keyType(), entry.getKey()),
                    convert(type.valueType(), entry.getValue()));
        }
        return new GenericMapData(converted);
    }
}
