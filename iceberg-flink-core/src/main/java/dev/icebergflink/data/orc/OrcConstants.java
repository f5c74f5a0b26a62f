package dev.icebergflink.data.orc;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.UUIDUtil;

/**
 * Turns the constants that a scan passes to a reader ({@code idToConstant}: partition values,
 * {@code _file}, {@code _spec_id}, row lineage) into Flink internal values, so that a constant
 * column holds the same classes as a column read from the file.
 *
 * <p>Both Iceberg's internal representations (CharSequence, BigDecimal, ByteBuffer, UUID, micros or
 * nanos as long, java.time values) and values that are already Flink internal ({@link StringData},
 * {@link DecimalData}, {@link TimestampData}, byte[], int millis) are accepted. Constants whose
 * field is not in the projected schema, and nested values, pass through unchanged.
 */
final class OrcConstants {

    private static final long MICROS_PER_MILLI = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private OrcConstants() {}

    static Map<Integer, Object> toFlink(Schema schema, Map<Integer, ?> idToConstant) {
        if (idToConstant == null || idToConstant.isEmpty()) {
            return Map.of();
        }
        Map<Integer, Object> converted = new HashMap<>(idToConstant.size() * 2);
        for (Map.Entry<Integer, ?> entry : idToConstant.entrySet()) {
            Type type = schema.findType(entry.getKey());
            converted.put(
                    entry.getKey(),
                    type == null ? entry.getValue() : toFlink(type, entry.getValue()));
        }
        return converted;
    }

    static Object toFlink(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case STRING:
                return value instanceof CharSequence
                        ? StringData.fromString(value.toString())
                        : value;
            case DECIMAL:
                if (value instanceof BigDecimal) {
                    Types.DecimalType decimal = (Types.DecimalType) type;
                    return DecimalData.fromBigDecimal(
                            (BigDecimal) value, decimal.precision(), decimal.scale());
                }
                return value;
            case UUID:
                if (value instanceof UUID) {
                    return UUIDUtil.convert((UUID) value);
                }
                return value instanceof ByteBuffer
                        ? ByteBuffers.toByteArray((ByteBuffer) value)
                        : value;
            case FIXED:
            case BINARY:
                return value instanceof ByteBuffer
                        ? ByteBuffers.toByteArray((ByteBuffer) value)
                        : value;
            case DATE:
                return value instanceof LocalDate ? (int) ((LocalDate) value).toEpochDay() : value;
            case TIME:
                if (value instanceof Long) {
                    return (int) ((Long) value / MICROS_PER_MILLI);
                }
                if (value instanceof LocalTime) {
                    return (int) (((LocalTime) value).toNanoOfDay() / NANOS_PER_MILLI);
                }
                return value;
            case TIMESTAMP:
                return timestamp(value, MICROS_PER_MILLI);
            case TIMESTAMP_NANO:
                return timestamp(value, NANOS_PER_MILLI);
            default:
                return value;
        }
    }

    private static Object timestamp(Object value, long unitsPerMilli) {
        if (value instanceof Long) {
            long amount = (Long) value;
            long nanosPerUnit = NANOS_PER_MILLI / unitsPerMilli;
            return TimestampData.fromEpochMillis(
                    Math.floorDiv(amount, unitsPerMilli),
                    (int) (Math.floorMod(amount, unitsPerMilli) * nanosPerUnit));
        }
        if (value instanceof LocalDateTime) {
            return TimestampData.fromLocalDateTime((LocalDateTime) value);
        }
        if (value instanceof OffsetDateTime) {
            return TimestampData.fromInstant(((OffsetDateTime) value).toInstant());
        }
        if (value instanceof Instant) {
            return TimestampData.fromInstant((Instant) value);
        }
        return value;
    }
}
