package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer of {@link IcebergEnumeratorState} (DESIGN §5: no Java serialization).
 *
 * <p>Version 1 layout: a position flag byte (0 = first round not done, 1 = position follows), then
 * the position as a nullable snapshot id and a nullable commit time (each a presence byte and a
 * long); then the split serializer's version (int), the number of pending splits (int) and each
 * split as length-prefixed bytes of that split serializer version.
 */
public final class IcebergEnumeratorStateSerializer
        implements SimpleVersionedSerializer<IcebergEnumeratorState> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    /** The version {@link #serialize} writes. */
    public static final int CURRENT_VERSION = VERSION_1;

    private final IcebergSourceSplitSerializer splitSerializer;

    public IcebergEnumeratorStateSerializer(IcebergSourceSplitSerializer splitSerializer) {
        this.splitSerializer = splitSerializer;
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(IcebergEnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        SnapshotPosition position = state.position();
        out.writeBoolean(position != null);
        if (position != null) {
            writeNullableLong(position.snapshotId(), out);
            writeNullableLong(position.timestampMillis(), out);
        }
        out.writeInt(splitSerializer.getVersion());
        out.writeInt(state.pendingSplits().size());
        for (IcebergSourceSplit split : state.pendingSplits()) {
            byte[] bytes = splitSerializer.serialize(split);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public IcebergEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown Iceberg enumerator state version "
                            + version
                            + "; this connector reads versions [1]");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        SnapshotPosition position = null;
        if (in.readBoolean()) {
            position = new SnapshotPosition(readNullableLong(in), readNullableLong(in));
        }
        int splitVersion = in.readInt();
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt Iceberg enumerator state: " + count + " splits");
        }
        List<IcebergSourceSplit> splits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            splits.add(splitSerializer.deserialize(splitVersion, bytes));
        }
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt Iceberg enumerator state: " + in.available() + " bytes left");
        }
        return new IcebergEnumeratorState(position, splits);
    }

    private static void writeNullableLong(Long value, DataOutputView out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeLong(value);
        }
    }

    private static Long readNullableLong(DataInputView in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }
}
