package dev.icebergflink.sink.dynamic;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * What the serializers of the dynamic sink's records in flight have in common: records are mutable
 * and of variable length, nothing is reused, and rows go in Flink's binary row format ({@link
 * BinaryRows}, one per serializer instance, so not shared between threads).
 *
 * @param <T> the record type
 */
@Internal
abstract class RecordSerializer<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private transient BinaryRows rows;

    /** The rows' reader and writer of this instance. */
    final BinaryRows rows() {
        if (rows == null) {
            rows = new BinaryRows();
        }
        return rows;
    }

    @Override
    public final boolean isImmutableType() {
        return false;
    }

    @Override
    public final T createInstance() {
        return null;
    }

    @Override
    public final T copy(T from, T reuse) {
        return copy(from);
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public final void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode();
    }
}
