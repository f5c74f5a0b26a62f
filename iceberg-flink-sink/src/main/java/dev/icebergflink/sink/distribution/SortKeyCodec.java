package dev.icebergflink.sink.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortKey;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;

/**
 * Turns the range-distribution sort keys ({@link SortKey}s of the distribution's sort order) into
 * bytes and back, and compares them.
 *
 * <p>It exists because the keys travel between the statistics operator and its coordinator and are
 * part of the coordinator's checkpointed state: every sort-key field is a primitive (the result of
 * a transform of a primitive column), written as a presence byte and, when present, Iceberg's
 * single-value binary form ({@link Conversions#toByteBuffer}) with its length.
 */
final class SortKeyCodec {

    private final Schema schema;
    private final SortOrder order;
    private final Type[] types;
    private final Comparator<StructLike> comparator;

    SortKeyCodec(Schema schema, SortOrder order) {
        this.schema = schema;
        this.order = order;
        List<SortField> fields = order.fields();
        this.types = new Type[fields.size()];
        for (int i = 0; i < types.length; i++) {
            SortField field = fields.get(i);
            Type source = schema.findType(field.sourceId());
            types[i] = field.transform().getResultType(source);
            if (!types[i].isPrimitiveType()) {
                throw new IllegalArgumentException(
                        "distribution-mode 'range' needs primitive sort keys, but sort field "
                                + field
                                + " has type "
                                + types[i]);
            }
        }
        this.comparator = keyComparator(fields, types);
    }

    /**
     * Compares {@link SortKey}s (not table rows) field by field, by each sort field's direction and
     * null order.
     */
    private static Comparator<StructLike> keyComparator(List<SortField> fields, Type[] types) {
        List<Comparator<Object>> byField = new ArrayList<>(types.length);
        for (int i = 0; i < types.length; i++) {
            Comparator<Object> values = Comparators.forType(types[i].asPrimitiveType());
            if (fields.get(i).direction() == SortDirection.DESC) {
                values = values.reversed();
            }
            byField.add(
                    fields.get(i).nullOrder() == NullOrder.NULLS_FIRST
                            ? Comparator.nullsFirst(values)
                            : Comparator.nullsLast(values));
        }
        return (left, right) -> {
            for (int i = 0; i < byField.size(); i++) {
                int result =
                        byField.get(i)
                                .compare(left.get(i, Object.class), right.get(i, Object.class));
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
    }

    /** A fresh, empty key of the sort order. */
    SortKey newKey() {
        return new SortKey(schema, order);
    }

    /** The order of keys (the sort order's directions and null orders). */
    Comparator<StructLike> comparator() {
        return comparator;
    }

    byte[] encode(StructLike key) {
        DataOutputSerializer out = new DataOutputSerializer(32);
        try {
            for (int i = 0; i < types.length; i++) {
                Object value = key.get(i, Object.class);
                if (value == null) {
                    out.writeByte(0);
                } else {
                    out.writeByte(1);
                    ByteBuffer buffer = Conversions.toByteBuffer(types[i], value);
                    byte[] bytes = new byte[buffer.remaining()];
                    buffer.duplicate().get(bytes);
                    out.writeInt(bytes.length);
                    out.write(bytes);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.getCopyOfBuffer();
    }

    SortKey decode(byte[] bytes) {
        SortKey key = newKey();
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        try {
            for (int i = 0; i < types.length; i++) {
                if (in.readByte() == 0) {
                    key.set(i, null);
                } else {
                    byte[] value = new byte[in.readInt()];
                    in.readFully(value);
                    key.set(i, Conversions.fromByteBuffer(types[i], ByteBuffer.wrap(value)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return key;
    }
}
