package dev.icebergflink.sink.dynamic;

import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.committer.IcebergCommittableSerializer;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Versioned serializer of {@link DynamicCommittable}s, for the dynamic sink's committer state and
 * the way from the aggregation to the committer.
 *
 * <p>Format of version {@value #VERSION_1}: the table identifier (an int count of namespace levels,
 * each level and then the table name as length-prefixed UTF-8), the branch (a presence byte and,
 * when present, the name), then the {@link IcebergCommittable}: the version of its format (int) and
 * the committable in that format, as {@link IcebergCommittableSerializer} writes it. A committable
 * format that evolves is thus read in the version it was written with.
 */
@Internal
public final class DynamicCommittableSerializer
        implements SimpleVersionedSerializer<DynamicCommittable> {

    /** The first format. */
    public static final int VERSION_1 = 1;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(DynamicCommittable committable) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        TableIdentifierCodec.write(committable.table(), out);
        TableIdentifierCodec.writeNullable(committable.branch(), out);
        out.writeInt(IcebergCommittableSerializer.CURRENT_VERSION);
        IcebergCommittableSerializer.write(committable.committable(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public DynamicCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown DynamicCommittable serialization version "
                            + version
                            + "; this sink reads version "
                            + VERSION_1);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        TableIdentifier table = TableIdentifierCodec.read(in);
        String branch = TableIdentifierCodec.readNullable(in);
        int committableVersion = in.readInt();
        IcebergCommittable committable = IcebergCommittableSerializer.read(committableVersion, in);
        if (in.available() != 0) {
            throw new IOException(
                    "Corrupt DynamicCommittable state: " + in.available() + " trailing bytes");
        }
        return new DynamicCommittable(table, branch, committable);
    }
}
