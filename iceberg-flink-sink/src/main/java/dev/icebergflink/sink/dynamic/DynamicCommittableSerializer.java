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
 * <p>Format of version {@value #VERSION_2}: the table identifier (an int count of namespace levels,
 * each level and then the table name as length-prefixed UTF-8), the branch (a presence byte and,
 * when present, the name), the generation (int), then the {@link IcebergCommittable}: the version
 * of its format (int) and the committable in that format, as {@link IcebergCommittableSerializer}
 * writes it. A committable format that evolves is thus read in the version it was written with.
 * Version {@value #VERSION_1} has no generation; its committables are generation 0.
 */
@Internal
public final class DynamicCommittableSerializer
        implements SimpleVersionedSerializer<DynamicCommittable> {

    /** The first format, without generations. */
    public static final int VERSION_1 = 1;

    /** The current format, with the generation. */
    public static final int VERSION_2 = 2;

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(DynamicCommittable committable) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        TableIdentifierCodec.write(committable.table(), out);
        TableIdentifierCodec.writeNullable(committable.branch(), out);
        out.writeInt(committable.generation());
        out.writeInt(IcebergCommittableSerializer.CURRENT_VERSION);
        IcebergCommittableSerializer.write(committable.committable(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public DynamicCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException(
                    "Unknown DynamicCommittable serialization version "
                            + version
                            + "; this sink reads versions "
                            + VERSION_1
                            + " and "
                            + VERSION_2);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        TableIdentifier table = TableIdentifierCodec.read(in);
        String branch = TableIdentifierCodec.readNullable(in);
        int generation = version == VERSION_1 ? 0 : in.readInt();
        int committableVersion = in.readInt();
        IcebergCommittable committable = IcebergCommittableSerializer.read(committableVersion, in);
        if (in.available() != 0) {
            throw new IOException(
                    "Corrupt DynamicCommittable state: " + in.available() + " trailing bytes");
        }
        return new DynamicCommittable(table, branch, generation, committable);
    }
}
