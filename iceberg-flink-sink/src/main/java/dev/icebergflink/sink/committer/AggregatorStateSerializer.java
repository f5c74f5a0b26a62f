package dev.icebergflink.sink.committer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link AggregatorState}.
 *
 * <p>Format of version {@value #VERSION_1}: the last checkpoint id (long), an int count of pending
 * checkpoints, and per checkpoint its id (long), an int count of results and each result as {@link
 * SimpleVersionedSerialization#writeVersionAndSerialize} of the results' serializer ({@link
 * WriteResultSerializer} for the single-table sink), so the inner format carries its own version.
 */
final class AggregatorStateSerializer<R> implements SimpleVersionedSerializer<AggregatorState<R>> {

    /** The first (and current) format. */
    static final int VERSION_1 = 1;

    /** The version {@link #serialize(AggregatorState)} writes. */
    static final int CURRENT_VERSION = VERSION_1;

    private final SimpleVersionedSerializer<R> resultSerializer;

    AggregatorStateSerializer(SimpleVersionedSerializer<R> resultSerializer) {
        this.resultSerializer = resultSerializer;
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(AggregatorState<R> state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeLong(state.lastCheckpointId());
        out.writeInt(state.pending().size());
        for (Map.Entry<Long, List<R>> entry : state.pending().entrySet()) {
            out.writeLong(entry.getKey());
            out.writeInt(entry.getValue().size());
            for (R result : entry.getValue()) {
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        resultSerializer, result, out);
            }
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public AggregatorState<R> deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown Iceberg aggregator state version "
                            + version
                            + "; this sink reads version "
                            + VERSION_1);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long lastCheckpointId = in.readLong();
        int checkpoints = in.readInt();
        if (checkpoints < 0) {
            throw new IOException("Corrupt aggregator state: negative count " + checkpoints);
        }
        TreeMap<Long, List<R>> pending = new TreeMap<>();
        for (int i = 0; i < checkpoints; i++) {
            long checkpointId = in.readLong();
            int count = in.readInt();
            if (count < 0) {
                throw new IOException("Corrupt aggregator state: negative count " + count);
            }
            List<R> results = new ArrayList<>(count);
            for (int j = 0; j < count; j++) {
                results.add(
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                resultSerializer, in));
            }
            pending.put(checkpointId, results);
        }
        if (in.available() != 0) {
            throw new IOException(
                    "Corrupt aggregator state: " + in.available() + " trailing bytes");
        }
        return new AggregatorState<>(lastCheckpointId, pending);
    }
}
