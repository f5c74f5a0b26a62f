package dev.icebergflink.maintenance.rewrite;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of one work item of the streaming rewrite: the size at which the worker
 * rolls output files (decided by the plan), the index of the file group the unit belongs to (so
 * that its output can be committed with its group), and the unit, in its own versioned form ({@link
 * RewriteUnitSerializer} behind {@code SimpleVersionedSerialization}).
 *
 * <p>Version {@value #VERSION_2} (current): the roll size (long), the group index (int), the unit's
 * length (int), the unit's bytes.
 *
 * <p>Version {@value #VERSION_1}: the roll size (long), the unit's length (int), the unit's bytes;
 * read as group 0, the one group a version-1 plan header is read as.
 */
@Internal
public final class RewriteItemSerializer
        implements SimpleVersionedSerializer<RewriteItemSerializer.Item> {

    /** The first version, without the group index; see the class comment. */
    public static final int VERSION_1 = 1;

    /** The current version; see the class comment for its layout. */
    public static final int VERSION_2 = 2;

    /**
     * One work item.
     *
     * @param writeTargetFileSize the size at which output files are rolled
     * @param group the index of the unit's file group in the plan
     * @param unit the unit, version-prefixed bytes of {@link RewriteUnitSerializer}
     */
    public record Item(long writeTargetFileSize, int group, byte[] unit) {}

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(Item item) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(item.unit().length + 16);
        out.writeLong(item.writeTargetFileSize());
        out.writeInt(item.group());
        out.writeInt(item.unit().length);
        out.write(item.unit());
        return out.getCopyOfBuffer();
    }

    @Override
    public Item deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException(
                    "Unknown rewrite item version "
                            + version
                            + "; this release reads versions 1 and 2");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long target = in.readLong();
        int group = version == VERSION_1 ? 0 : in.readInt();
        if (group < 0) {
            throw new IOException("Corrupt rewrite item: negative group index " + group);
        }
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
        return new Item(target, group, unit);
    }
}
