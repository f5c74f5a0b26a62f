package dev.icebergflink.sink.distribution;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes {@link EqualityKey}s as their bytes: exactly {@code length} bytes for keys of a fixed
 * width, else a variable-length count (7 bits per byte) followed by the bytes.
 *
 * <p>It exists so that Flink's batch sort sees the key's values in the first serialized bytes (its
 * normalized key), and a fixed {@link #getLength() length} when the key has one, which selects
 * Flink's fixed-length key comparator. It is also the key serializer of the de-duplication's keyed
 * state in streaming execution, so it has a {@link Snapshot}.
 */
@Internal
public final class EqualityKeySerializer extends TypeSerializer<EqualityKey> {

    private static final long serialVersionUID = 1L;

    /** The length of every key, or -1 when keys vary in length. */
    private final int length;

    /**
     * @param length the length of every key in bytes, or -1 when keys vary in length
     */
    public EqualityKeySerializer(int length) {
        if (length < -1 || length == 0) {
            throw new IllegalArgumentException(
                    "An equality key length must be positive, or -1 for variable; got " + length);
        }
        this.length = length;
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<EqualityKey> duplicate() {
        return this;
    }

    @Override
    public EqualityKey createInstance() {
        return new EqualityKey(new byte[Math.max(length, 0)]);
    }

    @Override
    public EqualityKey copy(EqualityKey from) {
        return from;
    }

    @Override
    public EqualityKey copy(EqualityKey from, EqualityKey reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return length;
    }

    @Override
    public void serialize(EqualityKey key, DataOutputView target) throws IOException {
        byte[] bytes = key.bytes();
        if (length < 0) {
            writeCount(bytes.length, target);
        } else if (bytes.length != length) {
            throw new IllegalStateException(
                    String.format(
                            "An equality key of %d bytes cannot be serialized by a serializer of"
                                    + " fixed length %d",
                            bytes.length, length));
        }
        target.write(bytes);
    }

    @Override
    public EqualityKey deserialize(DataInputView source) throws IOException {
        byte[] bytes = new byte[length < 0 ? readCount(source) : length];
        source.readFully(bytes);
        return new EqualityKey(bytes);
    }

    @Override
    public EqualityKey deserialize(EqualityKey reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int count = length;
        if (count < 0) {
            count = readCount(source);
            writeCount(count, target);
        }
        target.write(source, count);
    }

    private static void writeCount(int count, DataOutputView target) throws IOException {
        int rest = count;
        while ((rest & ~0x7F) != 0) {
            target.writeByte((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        target.writeByte(rest);
    }

    private static int readCount(DataInputView source) throws IOException {
        int count = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            int b = source.readUnsignedByte();
            count |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return count;
            }
        }
        throw new IOException("Corrupt equality key: its length does not end within 5 bytes");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EqualityKeySerializer serializer && serializer.length == length;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(length);
    }

    @Override
    public String toString() {
        return "EqualityKeySerializer[" + (length < 0 ? "variable" : length + " bytes") + "]";
    }

    @Override
    public TypeSerializerSnapshot<EqualityKey> snapshotConfiguration() {
        return new Snapshot(length);
    }

    /**
     * The serializer's configuration in checkpoints (the key serializer of the de-duplication's
     * keyed state): its key length. Version 1: one int, the length or -1.
     */
    public static final class Snapshot implements TypeSerializerSnapshot<EqualityKey> {

        private static final int VERSION = 1;

        private int length;

        /** For Flink, which reads snapshots reflectively; {@link #readSnapshot} sets the length. */
        public Snapshot() {}

        Snapshot(int length) {
            this.length = length;
        }

        @Override
        public int getCurrentVersion() {
            return VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeInt(length);
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader)
                throws IOException {
            if (readVersion != VERSION) {
                throw new IOException(
                        "Unknown version "
                                + readVersion
                                + " of the equality key serializer snapshot; known: "
                                + VERSION);
            }
            length = in.readInt();
        }

        @Override
        public TypeSerializer<EqualityKey> restoreSerializer() {
            return new EqualityKeySerializer(length);
        }

        @Override
        public TypeSerializerSchemaCompatibility<EqualityKey> resolveSchemaCompatibility(
                TypeSerializerSnapshot<EqualityKey> oldSnapshot) {
            if (oldSnapshot instanceof Snapshot old && old.length == length) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            return TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
