package dev.icebergflink.sink.distribution;

import dev.icebergflink.sink.compat.SerializerConfigTypeInformation;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information for {@link EqualityKey}s of one key layout: fixed-length keys (a length
 * in bytes) or variable-length keys (-1).
 *
 * <p>It exists so that {@code keyBy} gets the {@link EqualityKeySerializer} of the right length.
 */
@Internal
public final class EqualityKeyTypeInfo extends SerializerConfigTypeInformation<EqualityKey> {

    private static final long serialVersionUID = 1L;

    private final int length;

    /**
     * @param length the length of every key in bytes, or -1 when keys vary in length
     */
    public EqualityKeyTypeInfo(int length) {
        this.length = length;
    }

    /** The length of every key in bytes, or -1 when keys vary in length. */
    public int keyLength() {
        return length;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<EqualityKey> getTypeClass() {
        return EqualityKey.class;
    }

    @Override
    public boolean isKeyType() {
        return true;
    }

    @Override
    public TypeSerializer<EqualityKey> createSerializer(SerializerConfig config) {
        return new EqualityKeySerializer(length);
    }

    @Override
    public String toString() {
        return "EqualityKey(" + (length < 0 ? "variable" : length + " bytes") + ")";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EqualityKeyTypeInfo info && info.length == length;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(length);
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof EqualityKeyTypeInfo;
    }
}
