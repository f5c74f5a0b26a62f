package dev.icebergflink.maintenance.rewrite;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of one work item of the streaming rewrite: the size at which the worker
 * rolls output files (decided by the plan), and the unit, in its own versioned form ({@link
 * RewriteUnitSerializer} behind {@code SimpleVersionedSerialization}).
 *
 * <p>Version {@value #VERSION_1}: the roll size (long), the unit's length (int), the unit's bytes.
 */
@Internal
public final class RewriteItemSerializer
        implements SimpleVersionedSerializer<RewriteItemSerializer.Item> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    /**
     * One work item.
     *
     * @param writeTargetFileSize the size at which output files are rolled
     * @param unit the unit, version-prefixed bytes of {@link RewriteUnitSerializer}
     */
    public record Item(long writeTargetFileSize, byte[] unit) {}

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(Item item) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(item.unit().length + 12);
        out.writeLong(item.writeTargetFileSize());
        out.writeInt(item.unit().length);
        out.write(item.unit());
        return out.getCopyOfBuffer();
    }

    @Override
    public Item deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown rewrite item version " + version + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long target = in.readLong();
        int length = in.readInt();
        if (length < 0 || length != in.available()) {
            throw new IOException(
                    "Corrupt rewrite item: unit length "
                            + length
                            + ", "
                            + in.available()
                            + " left");
        }
        byte[] unit = new byte[length];
        in.readFully(unit);
        return new Item(target, unit);
    }
}
