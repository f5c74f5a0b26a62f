package dev.icebergflink.data.orc;

import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RowDataConverter;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The shared random test data, minus the one value range that the ORC format cannot store.
 *
 * <p>ORC keeps a timestamp as whole seconds truncated toward zero plus nanos, and its reader
 * restores the sign from the seconds; a timestamp strictly between one second before the epoch and
 * the epoch, with at least a millisecond of fraction, therefore reads back one second late. Every
 * ORC writer has this (see {@code OrcTimestampTest}, which pins it against iceberg-data's generic
 * writer), so the random data moves such timestamps one second earlier, where they survive.
 */
final class OrcTestData {

    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    private static final LocalDateTime ONE_SECOND_BEFORE = EPOCH.minusSeconds(1);

    private OrcTestData() {}

    static List<Record> records(Schema schema, int count, long seed) {
        List<Record> records = RandomRecords.generate(schema, count, seed);
        List<Record> result = new ArrayList<>(records.size());
        for (Record record : records) {
            result.add((Record) representable(schema.asStruct(), record));
        }
        return result;
    }

    static List<RowData> rows(Schema schema, int count, long seed) {
        return RowDataConverter.fromRecords(schema, records(schema, count, seed));
    }

    private static Object representable(Type type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.typeId()) {
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return representableTimestamp(value);
            case STRUCT:
                {
                    Record record = ((Record) value).copy();
                    List<Types.NestedField> fields = type.asStructType().fields();
                    for (int i = 0; i < fields.size(); i++) {
                        record.set(i, representable(fields.get(i).type(), record.get(i)));
                    }
                    return record;
                }
            case LIST:
                {
                    List<Object> list = new ArrayList<>();
                    for (Object element : (List<?>) value) {
                        list.add(representable(type.asListType().elementType(), element));
                    }
                    return list;
                }
            case MAP:
                {
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                        map.put(
                                entry.getKey(),
                                representable(type.asMapType().valueType(), entry.getValue()));
                    }
                    return map;
                }
            default:
                return value;
        }
    }

    private static Object representableTimestamp(Object value) {
        boolean withZone = value instanceof OffsetDateTime;
        LocalDateTime local =
                withZone
                        ? ((OffsetDateTime) value)
                                .withOffsetSameInstant(ZoneOffset.UTC)
                                .toLocalDateTime()
                        : (LocalDateTime) value;
        if (local.isAfter(ONE_SECOND_BEFORE)
                && local.isBefore(EPOCH)
                && local.getNano() >= 1_000_000) {
            local = local.minusSeconds(1);
        }
        return withZone ? local.atOffset(ZoneOffset.UTC) : local;
    }
}
