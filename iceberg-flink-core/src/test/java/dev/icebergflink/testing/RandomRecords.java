package dev.icebergflink.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Seeded random Iceberg generic {@link Record}s for any schema, so data can be written by
 * iceberg-data's generic writers and compared with ours. Values use Iceberg's generic
 * representations (LocalDate, LocalTime, LocalDateTime, OffsetDateTime in UTC, String, UUID,
 * ByteBuffer for binary, byte[] for fixed, BigDecimal, List, Map, Record).
 *
 * <p>About 15% of optional values (fields, list elements, map values) are null; lists and maps are
 * sometimes empty; edge values (min/max numbers, NaN/Infinity, negative and full-precision
 * decimals, dates before 1970, times at the end of the day) show up often. Times are kept at
 * millisecond precision, because the Flink side holds milliseconds. {@link RandomRowData} produces
 * exactly the same data as Flink RowData for the same schema, count and seed.
 */
public final class RandomRecords {

    private static final double NULL_RATE = 0.15;
    private static final double EDGE_RATE = 0.15;
    private static final int MAX_COLLECTION_SIZE = 4;

    private static final String[] STRING_PIECES = {
        "a", "b", "Z", "0", " ", "-", "_", "é", "ß", "中", "文", "ж", "😀", "🚀", "\t", "'", "\"",
        "\\", "\u0000", "x"
    };
    private static final String[] EDGE_STRINGS = {"", " ", "null", "🙂 héllo 世界", "a\nb"};

    private static final LocalDate MIN_DATE = LocalDate.of(1800, 1, 1);
    private static final LocalDate MAX_DATE = LocalDate.of(2200, 12, 31);
    private static final LocalDate[] EDGE_DATES = {
        LocalDate.of(1970, 1, 1),
        LocalDate.of(1969, 12, 31),
        LocalDate.of(1900, 1, 1),
        LocalDate.of(1583, 1, 1),
        LocalDate.of(2000, 2, 29),
        LocalDate.of(9999, 12, 31)
    };
    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    private static final LocalDateTime[] EDGE_TIMESTAMPS = {
        EPOCH,
        EPOCH.minus(1, ChronoUnit.MICROS),
        EPOCH.plus(1, ChronoUnit.MICROS),
        LocalDateTime.of(1900, 1, 1, 0, 0),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1_000),
        LocalDateTime.of(2199, 12, 31, 23, 59, 59, 999_999_000)
    };

    private final Random random;

    private RandomRecords(long seed) {
        this.random = new Random(seed);
    }

    /**
     * Generates {@code count} records of {@code schema}; the same arguments always give the same
     * records.
     */
    public static List<Record> generate(Schema schema, int count, long seed) {
        RandomRecords generator = new RandomRecords(seed);
        List<Record> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add(generator.struct(schema.asStruct()));
        }
        return records;
    }

    private Record struct(Types.StructType type) {
        Record record = GenericRecord.create(type);
        List<Types.NestedField> fields = type.fields();
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            record.set(i, valueOrNull(field.type(), field.isOptional()));
        }
        return record;
    }

    private Object valueOrNull(Type type, boolean optional) {
        if (optional && random.nextDouble() < NULL_RATE) {
            return null;
        }
        return value(type);
    }

    private Object value(Type type) {
        boolean edge = random.nextDouble() < EDGE_RATE;
        switch (type.typeId()) {
            case BOOLEAN:
                return random.nextBoolean();
            case INTEGER:
                return edge
                        ? pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1)
                        : random.nextInt();
            case LONG:
                return edge ? pick(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L) : random.nextLong();
            case FLOAT:
                return edge
                        ? pick(
                                Float.NaN,
                                Float.POSITIVE_INFINITY,
                                Float.NEGATIVE_INFINITY,
                                -0.0f,
                                Float.MIN_VALUE,
                                Float.MAX_VALUE,
                                -Float.MAX_VALUE)
                        : (random.nextFloat() - 0.5f) * 2e6f;
            case DOUBLE:
                return edge
                        ? pick(
                                Double.NaN,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                -0.0d,
                                Double.MIN_VALUE,
                                Double.MAX_VALUE,
                                -Double.MAX_VALUE)
                        : (random.nextDouble() - 0.5d) * 2e12d;
            case DATE:
                return edge ? pick(EDGE_DATES) : randomDate();
            case TIME:
                return edge
                        ? pick(
                                LocalTime.MIDNIGHT,
                                LocalTime.of(23, 59, 59, 999_000_000),
                                LocalTime.NOON)
                        : LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L);
            case TIMESTAMP:
                {
                    LocalDateTime ts = edge ? pick(EDGE_TIMESTAMPS) : randomTimestamp(1_000);
                    return timestamp(ts, ((Types.TimestampType) type).shouldAdjustToUTC());
                }
            case TIMESTAMP_NANO:
                {
                    LocalDateTime ts =
                            edge
                                    ? pick(EDGE_TIMESTAMPS).plusNanos(pick(0, 1, 999))
                                    : randomTimestamp(1);
                    return timestamp(ts, ((Types.TimestampNanoType) type).shouldAdjustToUTC());
                }
            case STRING:
                return edge ? pick(EDGE_STRINGS) : randomString();
            case UUID:
                return edge
                        ? pick(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 1))
                        : new UUID(random.nextLong(), random.nextLong());
            case FIXED:
                return randomBytes(((Types.FixedType) type).length());
            case BINARY:
                return ByteBuffer.wrap(randomBytes(edge ? 0 : random.nextInt(24)));
            case DECIMAL:
                return randomDecimal((Types.DecimalType) type, edge);
            case STRUCT:
                return struct(type.asStructType());
            case LIST:
                return list(type.asListType());
            case MAP:
                return map(type.asMapType());
            default:
                throw new UnsupportedOperationException("Cannot generate values of type " + type);
        }
    }

    private List<Object> list(Types.ListType type) {
        int size = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(MAX_COLLECTION_SIZE);
        List<Object> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(valueOrNull(type.elementType(), type.isElementOptional()));
        }
        return list;
    }

    private Map<Object, Object> map(Types.MapType type) {
        int size = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(MAX_COLLECTION_SIZE);
        Map<Object, Object> map = new LinkedHashMap<>();
        Set<Object> seenKeys = new HashSet<>();
        for (int attempt = 0; map.size() < size && attempt < size * 10; attempt++) {
            Object key = value(type.keyType());
            if (seenKeys.add(canonicalKey(key))) {
                map.put(key, valueOrNull(type.valueType(), type.isValueOptional()));
            }
        }
        return map;
    }

    /**
     * A value-equal stand-in for a generic key, so byte arrays and records with equal content
     * collide.
     */
    private static Object canonicalKey(Object key) {
        if (key instanceof byte[]) {
            return ByteBuffer.wrap((byte[]) key);
        } else if (key instanceof Record) {
            Record record = (Record) key;
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < record.size(); i++) {
                values.add(canonicalKey(record.get(i)));
            }
            return values;
        } else if (key instanceof Float) {
            return Float.floatToIntBits((Float) key);
        } else if (key instanceof Double) {
            return Double.doubleToLongBits((Double) key);
        }
        return key;
    }

    private static Object timestamp(LocalDateTime ts, boolean withZone) {
        return withZone ? ts.atOffset(ZoneOffset.UTC) : ts;
    }

    private LocalDate randomDate() {
        long days = MAX_DATE.toEpochDay() - MIN_DATE.toEpochDay();
        return LocalDate.ofEpochDay(MIN_DATE.toEpochDay() + (long) (random.nextDouble() * days));
    }

    /** A timestamp between 1800 and 2200 whose nanos are a multiple of {@code nanoUnit}. */
    private LocalDateTime randomTimestamp(int nanoUnit) {
        LocalDateTime ts = randomDate().atStartOfDay().plusSeconds(random.nextInt(86_400));
        int nanos = random.nextInt(1_000_000_000 / nanoUnit) * nanoUnit;
        return ts.plusNanos(nanos);
    }

    private String randomString() {
        int length = random.nextInt(16);
        StringBuilder builder = new StringBuilder();
        for (int i = 0; i < length; i++) {
            builder.append(STRING_PIECES[random.nextInt(STRING_PIECES.length)]);
        }
        return builder.toString();
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private BigDecimal randomDecimal(Types.DecimalType type, boolean edge) {
        int precision = type.precision();
        BigInteger unscaled;
        if (edge) {
            BigInteger max = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
            unscaled =
                    pick(
                            max,
                            max.negate(),
                            BigInteger.ZERO,
                            BigInteger.ONE,
                            BigInteger.ONE.negate());
        } else {
            int digits = 1 + random.nextInt(precision);
            unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
            if (random.nextBoolean()) {
                unscaled = unscaled.negate();
            }
        }
        return new BigDecimal(unscaled, type.scale());
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[random.nextInt(values.length)];
    }
}
