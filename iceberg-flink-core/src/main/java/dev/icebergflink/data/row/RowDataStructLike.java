package dev.icebergflink.data.row;

import dev.icebergflink.compat.FlinkVariants;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.UUIDUtil;

/**
 * A read-only {@link StructLike} view of a Flink {@link RowData}, presenting each value in
 * Iceberg's internal representation, so Iceberg's {@code PartitionKey}, {@code StructProjection}
 * and other StructLike consumers work directly on Flink rows (for example to compute partition
 * values or equality-delete keys on the write path).
 *
 * <p>Values are converted on access: TINYINT/SMALLINT become int; TIME millis become long micros;
 * timestamps become long micros (or nanos for {@code timestamp_ns}); strings become {@link
 * CharSequence}; binary and fixed become {@link ByteBuffer}; uuid becomes {@link java.util.UUID};
 * decimals become {@link java.math.BigDecimal}; nested rows are presented through one reused nested
 * view per field; lists and maps are copied into Java {@link List}s and {@link Map}s. All per-field
 * work is decided once in the constructor. Instances are not thread-safe and are meant to be reused
 * via {@link #wrap(RowData)}.
 */
@Internal
public final class RowDataStructLike implements StructLike {

    /** Converts a Flink internal value (never null) to Iceberg's internal representation. */
    @FunctionalInterface
    private interface ValueConverter {
        Object convert(Object flinkValue);
    }

    private static final ValueConverter IDENTITY = value -> value;

    private final RowData.FieldGetter[] getters;
    private final ValueConverter[] converters;
    private RowData row;

    /**
     * Creates a view of rows of {@code rowType} as the Iceberg struct {@code struct}.
     *
     * @throws IllegalArgumentException when the two types do not have the same number of fields, or
     *     a Flink field type cannot hold values of the Iceberg field type
     */
    public RowDataStructLike(Types.StructType struct, RowType rowType) {
        this(struct, rowType, "");
    }

    private RowDataStructLike(Types.StructType struct, RowType rowType, String path) {
        List<Types.NestedField> fields = struct.fields();
        if (fields.size() != rowType.getFieldCount()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot view Flink rows as Iceberg struct%s: the Iceberg struct has %d fields %s but the Flink row type has %d fields %s",
                            path.isEmpty() ? "" : " '" + path + "'",
                            fields.size(),
                            fields.stream()
                                    .map(Types.NestedField::name)
                                    .collect(Collectors.toList()),
                            rowType.getFieldCount(),
                            rowType.getFieldNames()));
        }
        this.getters = new RowData.FieldGetter[fields.size()];
        this.converters = new ValueConverter[fields.size()];
        for (int pos = 0; pos < fields.size(); pos++) {
            Types.NestedField field = fields.get(pos);
            LogicalType flinkType = rowType.getTypeAt(pos);
            String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
            getters[pos] = RowData.createFieldGetter(flinkType, pos);
            converters[pos] = converter(field.type(), flinkType, fieldPath);
        }
    }

    /** Points this view at {@code newRow} and returns this same instance (no allocation). */
    public RowDataStructLike wrap(RowData newRow) {
        this.row = newRow;
        return this;
    }

    @Override
    public int size() {
        return getters.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
        Object value = getters[pos].getFieldOrNull(row);
        return value == null ? null : javaClass.cast(converters[pos].convert(value));
    }

    @Override
    public <T> void set(int pos, T value) {
        throw new UnsupportedOperationException(
                "RowDataStructLike is a read-only view of a Flink RowData; cannot set position "
                        + pos);
    }

    @Override
    public String toString() {
        return "RowDataStructLike{" + row + "}";
    }

    private static ValueConverter converter(Type type, LogicalType flinkType, String path) {
        LogicalTypeRoot root = flinkType.getTypeRoot();
        switch (type.typeId()) {
            case BOOLEAN:
                require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.BOOLEAN));
                return IDENTITY;
            case INTEGER:
                require(
                        type,
                        flinkType,
                        path,
                        EnumSet.of(
                                LogicalTypeRoot.TINYINT,
                                LogicalTypeRoot.SMALLINT,
                                LogicalTypeRoot.INTEGER));
                return root == LogicalTypeRoot.INTEGER
                        ? IDENTITY
                        : value -> ((Number) value).intValue();
            case LONG:
                require(
                        type,
                        flinkType,
                        path,
                        EnumSet.of(
                                LogicalTypeRoot.TINYINT,
                                LogicalTypeRoot.SMALLINT,
                                LogicalTypeRoot.INTEGER,
                                LogicalTypeRoot.BIGINT));
                return root == LogicalTypeRoot.BIGINT
                        ? IDENTITY
                        : value -> ((Number) value).longValue();
            case FLOAT:
                require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.FLOAT));
                return IDENTITY;
            case DOUBLE:
                require(
                        type,
                        flinkType,
                        path,
                        EnumSet.of(LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE));
                return root == LogicalTypeRoot.DOUBLE
                        ? IDENTITY
                        : value -> ((Number) value).doubleValue();
            case DATE:
                require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.DATE));
                return IDENTITY;
            case TIME:
                require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE));
                return value -> (Integer) value * 1_000L;
            case TIMESTAMP:
                require(type, flinkType, path, TIMESTAMP_ROOTS);
                return value -> micros((TimestampData) value);
            case TIMESTAMP_NANO:
                require(type, flinkType, path, TIMESTAMP_ROOTS);
                return value -> nanos((TimestampData) value);
            case STRING:
                require(
                        type,
                        flinkType,
                        path,
                        EnumSet.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR));
                return Object::toString;
            case UUID:
                require(type, flinkType, path, BINARY_ROOTS);
                return value -> UUIDUtil.convert((byte[]) value);
            case FIXED:
            case BINARY:
                require(type, flinkType, path, BINARY_ROOTS);
                return value -> ByteBuffer.wrap((byte[]) value);
            case DECIMAL:
                return decimalConverter((Types.DecimalType) type, flinkType, path);
            case STRUCT:
                {
                    require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.ROW));
                    RowDataStructLike nested =
                            new RowDataStructLike(type.asStructType(), (RowType) flinkType, path);
                    return value -> nested.wrap((RowData) value);
                }
            case LIST:
                {
                    require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.ARRAY));
                    LogicalType elementType = ((ArrayType) flinkType).getElementType();
                    return listConverter(
                            type.asListType().elementType(), elementType, path + ".element");
                }
            case MAP:
                {
                    require(
                            type,
                            flinkType,
                            path,
                            EnumSet.of(LogicalTypeRoot.MAP, LogicalTypeRoot.MULTISET));
                    LogicalType keyType;
                    LogicalType valueType;
                    if (root == LogicalTypeRoot.MULTISET) {
                        keyType = ((MultisetType) flinkType).getElementType();
                        valueType = new IntType(false);
                    } else {
                        keyType = ((MapType) flinkType).getKeyType();
                        valueType = ((MapType) flinkType).getValueType();
                    }
                    Types.MapType mapType = type.asMapType();
                    return mapConverter(mapType, keyType, valueType, path);
                }
            case VARIANT:
                if (!FlinkVariants.isVariant(flinkType)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot view column '%s' of Flink type %s as Iceberg type"
                                            + " variant; allowed Flink type: VARIANT",
                                    path, flinkType));
                }
                return value -> FlinkVariants.toIceberg(value, path);
            case UNKNOWN:
                return value -> null; // an unknown column holds nothing, whatever the row says
            default:
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot view column '%s': Iceberg type %s is not supported for Flink rows",
                                path, type));
        }
    }

    private static final Set<LogicalTypeRoot> TIMESTAMP_ROOTS =
            EnumSet.of(
                    LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
                    LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    private static final Set<LogicalTypeRoot> BINARY_ROOTS =
            EnumSet.of(LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY);

    private static ValueConverter decimalConverter(
            Types.DecimalType type, LogicalType flinkType, String path) {
        require(type, flinkType, path, EnumSet.of(LogicalTypeRoot.DECIMAL));
        DecimalType flinkDecimal = (DecimalType) flinkType;
        if (flinkDecimal.getScale() != type.scale()
                || flinkDecimal.getPrecision() > type.precision()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot view column '%s' of Flink type %s as Iceberg %s: the scale must be %d and the precision at most %d",
                            path, flinkType, type, type.scale(), type.precision()));
        }
        return value -> ((DecimalData) value).toBigDecimal();
    }

    private static ValueConverter listConverter(
            Type elementType, LogicalType flinkElementType, String path) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(flinkElementType);
        ValueConverter elementConverter = converter(elementType, flinkElementType, path);
        return value -> toList((ArrayData) value, getter, elementConverter);
    }

    private static ValueConverter mapConverter(
            Types.MapType type, LogicalType flinkKeyType, LogicalType flinkValueType, String path) {
        ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(flinkKeyType);
        ArrayData.ElementGetter valueGetter = ArrayData.createElementGetter(flinkValueType);
        ValueConverter keyConverter = converter(type.keyType(), flinkKeyType, path + ".key");
        ValueConverter valueConverter =
                converter(type.valueType(), flinkValueType, path + ".value");
        return value -> {
            MapData map = (MapData) value;
            List<Object> keys = toList(map.keyArray(), keyGetter, keyConverter);
            List<Object> values = toList(map.valueArray(), valueGetter, valueConverter);
            Map<Object, Object> result = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                result.put(keys.get(i), values.get(i));
            }
            return result;
        };
    }

    /**
     * Copies an array; nested structs are detached copies here, because a shared nested view cannot
     * stand for several elements at once.
     */
    private static List<Object> toList(
            ArrayData array, ArrayData.ElementGetter getter, ValueConverter converter) {
        List<Object> list = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            Object element = getter.getElementOrNull(array, i);
            Object converted = element == null ? null : converter.convert(element);
            list.add(converted instanceof StructLike ? copy((StructLike) converted) : converted);
        }
        return list;
    }

    private static StructLike copy(StructLike struct) {
        Object[] values = new Object[struct.size()];
        for (int i = 0; i < values.length; i++) {
            Object value = struct.get(i, Object.class);
            values[i] = value instanceof StructLike ? copy((StructLike) value) : value;
        }
        return new ValuesStruct(values);
    }

    private static long micros(TimestampData timestamp) {
        return Math.addExact(
                Math.multiplyExact(timestamp.getMillisecond(), 1_000L),
                timestamp.getNanoOfMillisecond() / 1_000);
    }

    private static long nanos(TimestampData timestamp) {
        return Math.addExact(
                Math.multiplyExact(timestamp.getMillisecond(), 1_000_000L),
                timestamp.getNanoOfMillisecond());
    }

    private static void require(
            Type type, LogicalType flinkType, String path, Set<LogicalTypeRoot> allowed) {
        if (!allowed.contains(flinkType.getTypeRoot())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot view column '%s' of Flink type %s as Iceberg type %s; allowed Flink types: %s",
                            path, flinkType, type, allowed));
        }
    }

    /**
     * A detached, read-only struct of already-converted values, used for structs inside lists and
     * maps.
     */
    private static final class ValuesStruct implements StructLike {
        private final Object[] values;

        private ValuesStruct(Object[] values) {
            this.values = values;
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        public <T> T get(int pos, Class<T> javaClass) {
            return javaClass.cast(values[pos]);
        }

        @Override
        public <T> void set(int pos, T value) {
            throw new UnsupportedOperationException("Read-only struct; cannot set position " + pos);
        }
    }
}
