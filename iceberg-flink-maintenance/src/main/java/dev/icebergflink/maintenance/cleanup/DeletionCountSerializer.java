package dev.icebergflink.maintenance.cleanup;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of what a deleting worker did with one batch: how many files it deleted and
 * how many it could not delete.
 *
 * <p>Version {@value #VERSION_1}: deleted (long), failed (long).
 */
@Internal
public final class DeletionCountSerializer
        implements SimpleVersionedSerializer<DeletionCountSerializer.Count> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    /**
     * The outcome of one batch.
     *
     * @param deleted files deleted
     * @param failed files that could not be deleted
     */
    public record Count(long deleted, long failed) {}

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(Count count) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        out.writeLong(count.deleted());
        out.writeLong(count.failed());
        return out.getCopyOfBuffer();
    }

    @Override
    public Count deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown deletion count version " + version + "; this release reads 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        Count count = new Count(in.readLong(), in.readLong());
        if (in.available() > 0) {
            throw new IOException("Corrupt deletion count: " + in.available() + " bytes left");
        }
        return count;
    }
}
