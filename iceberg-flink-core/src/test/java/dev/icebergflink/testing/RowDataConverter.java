package dev.icebergflink.testing;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.UUIDUtil;

/**
 * Deep conversion between Iceberg generic {@link Record}s and Flink {@link RowData} (as {@link
 * GenericRowData}) using the shared conventions table, so tests can compare our RowData readers and
 * writers with iceberg-data's generic ones.
 *
 * <p>{@code toRecord} reads any RowData implementation (binary, columnar, reused) and returns an
 * independent copy. Record times with sub-millisecond digits are truncated to milliseconds by
 * {@code fromRecord}, as Flink holds millis.
 */
public final class RowDataConverter {

    /** Converts a Flink row of {@code schema} into an Iceberg generic record. */
    public static Record toRecord(Schema schema, RowData row) {
        return toRecord(schema.asStruct(), row);
    }

    /** Converts a Flink row of {@code type} into an Iceberg generic record. */
    public static Record toRecord(Types.StructType type, RowData row) {
        List<Types.NestedField> fields = type.fields();
        Record record = GenericRecord.create(type);
        for (int i = 0; i < fields.size(); i++) {
            Type fieldType = fields.get(i).type();
            record.set(i, toGeneric(fieldType, RowDataValues.get(fieldType, row, i)));
        }
        return record;
    }

    /** Converts an Iceberg generic record of {@code schema} into a Flink {@link GenericRowData}. */
    public static RowData fromRecord(Schema schema, Record record) {
        return fromRecord(schema.asStruct(), record);
    }

    /** Converts an Iceberg generic record of {@code type} into a Flink {@link GenericRowData}. */
    public static RowData fromRecord(Types.StructType type, Record record) {
        List<Types.NestedField> fields = type.fields();
        GenericRowData row = new GenericRowData(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            row.setField(i, fromGeneric(fields.get(i).type(), record.get(i)));
        }
        return row;
    }

    /** Converts every record, in order. */
    public static List<RowData> fromRecords(Schema schema, List<Record> records) {
        List<RowData> rows = new ArrayList<>(records.size());
        for (Record record : records) {
            rows.add(fromRecord(schema, record));
        }
        return rows;
    }

    /** Converts every row, in order. */
    public static List<Record> toRecords(Schema schema, List<RowData> rows) {
        List<Record> records = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            records.add(toRecord(schema, row));
        }
        return records;
    }

    /**
     * Converts one Flink internal value of Iceberg type {@code type} to Iceberg's generic
     * representation.
     */
    public static Object toGeneric(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case BOOLEAN:
            case INTEGER:
            case LONG:
            case FLOAT:
            case DOUBLE:
                return value;
            case DATE:
                return LocalDate.ofEpochDay((Integer) value);
            case TIME:
                return LocalTime.ofNanoOfDay((Integer) value * 1_000_000L);
            case TIMESTAMP:
                return timestamp(
                        (TimestampData) value, ((Types.TimestampType) type).shouldAdjustToUTC());
            case TIMESTAMP_NANO:
                return timestamp(
                        (TimestampData) value,
                        ((Types.TimestampNanoType) type).shouldAdjustToUTC());
            case STRING:
                return value.toString();
            case UUID:
                return UUIDUtil.convert((byte[]) value);
            case FIXED:
                return ((byte[]) value).clone();
            case BINARY:
                return ByteBuffer.wrap(((byte[]) value).clone());
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal();
            case STRUCT:
                return toRecord(type.asStructType(), (RowData) value);
            case LIST:
                {
                    Type elementType = type.asListType().elementType();
                    ArrayData array = (ArrayData) value;
                    List<Object> list = new ArrayList<>(array.size());
                    for (int i = 0; i < array.size(); i++) {
                        list.add(toGeneric(elementType, RowDataValues.get(elementType, array, i)));
                    }
                    return list;
                }
            case MAP:
                {
                    Types.MapType mapType = type.asMapType();
                    MapData mapData = (MapData) value;
                    ArrayData keys = mapData.keyArray();
                    ArrayData values = mapData.valueArray();
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (int i = 0; i < mapData.size(); i++) {
                        map.put(
                                toGeneric(
                                        mapType.keyType(),
                                        RowDataValues.get(mapType.keyType(), keys, i)),
                                toGeneric(
                                        mapType.valueType(),
                                        RowDataValues.get(mapType.valueType(), values, i)));
                    }
                    return map;
                }
            default:
                throw new UnsupportedOperationException(
                        "Unsupported Iceberg type in test toolkit: " + type);
        }
    }

    /**
     * Converts one Iceberg generic value of type {@code type} to Flink's internal representation.
     */
    public static Object fromGeneric(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case BOOLEAN:
            case INTEGER:
            case LONG:
            case FLOAT:
            case DOUBLE:
                return value;
            case DATE:
                return (int) ((LocalDate) value).toEpochDay();
            case TIME:
                return (int) (((LocalTime) value).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                if (value instanceof OffsetDateTime) {
                    return TimestampData.fromInstant(((OffsetDateTime) value).toInstant());
                }
                return TimestampData.fromLocalDateTime((LocalDateTime) value);
            case STRING:
                return StringData.fromString(value.toString());
            case UUID:
                return UUIDUtil.convert((UUID) value);
            case FIXED:
                return value instanceof ByteBuffer
                        ? ByteBuffers.toByteArray((ByteBuffer) value)
                        : ((byte[]) value).clone();
            case BINARY:
                return value instanceof ByteBuffer
                        ? ByteBuffers.toByteArray((ByteBuffer) value)
                        : ((byte[]) value).clone();
            case DECIMAL:
                {
                    Types.DecimalType decimal = (Types.DecimalType) type;
                    DecimalData data =
                            DecimalData.fromBigDecimal(
                                    (BigDecimal) value, decimal.precision(), decimal.scale());
                    if (data == null) {
                        throw new IllegalArgumentException(
                                "Decimal " + value + " does not fit " + decimal);
                    }
                    return data;
                }
            case STRUCT:
                return fromRecord(type.asStructType(), (Record) value);
            case LIST:
                {
                    Type elementType = type.asListType().elementType();
                    List<?> list = (List<?>) value;
                    Object[] elements = new Object[list.size()];
                    for (int i = 0; i < elements.length; i++) {
                        elements[i] = fromGeneric(elementType, list.get(i));
                    }
                    return new GenericArrayData(elements);
                }
            case MAP:
                {
                    Types.MapType mapType = type.asMapType();
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                        map.put(
                                fromGeneric(mapType.keyType(), entry.getKey()),
                                fromGeneric(mapType.valueType(), entry.getValue()));
                    }
                    return new GenericMapData(map);
                }
            default:
                throw new UnsupportedOperationException(
                        "Unsupported Iceberg type in test toolkit: " + type);
        }
    }

    private static Object timestamp(TimestampData value, boolean withZone) {
        return withZone
                ? OffsetDateTime.ofInstant(value.toInstant(), ZoneOffset.UTC)
                : value.toLocalDateTime();
    }

    private RowDataConverter() {}
}
