package dev.icebergflink.sink.committer;

import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;

/**
 * Versioned serializer of {@link IcebergCommittable}s, for the committer's checkpointed state and
 * the way from the aggregation to the committer.
 *
 * <p>It exists because committables outlive jobs (savepoints), so their format is named and
 * versioned. Manifests are stored with Iceberg's own {@link ManifestFiles#encode(ManifestFile)},
 * which embeds its Avro schema and so stays readable across Iceberg versions.
 *
 * <p>Format of version {@value #VERSION_2}: job id, operator id and run id (length-prefixed UTF-8),
 * the checkpoint id (long), the end-of-input flag (boolean), then data, delete and rewritten-delete
 * manifests (each an int count and that many length-prefixed encoded manifests), then an int count
 * of referenced data file paths (length-prefixed UTF-8).
 *
 * <p>Version {@value #VERSION_1} is the same without the run id; it is read with an empty run id,
 * which matches the commits that the sink of that version made (see {@link CommitOwner}).
 */
@Internal
public final class IcebergCommittableSerializer
        implements SimpleVersionedSerializer<IcebergCommittable> {

    /** The first format, without run ids. */
    public static final int VERSION_1 = 1;

    /** The format with the sink's run id after the operator id. */
    public static final int VERSION_2 = 2;

    /** The version {@link #serialize(IcebergCommittable)} writes. */
    public static final int CURRENT_VERSION = VERSION_2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(IcebergCommittable committable) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(committable, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public IcebergCommittable deserialize(int version, byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        IcebergCommittable committable = read(version, in);
        if (in.available() != 0) {
            throw new IOException(
                    "Corrupt IcebergCommittable state: " + in.available() + " trailing bytes");
        }
        return committable;
    }

    /** Writes {@code committable} in the current format, for formats that embed committables. */
    public static void write(IcebergCommittable committable, DataOutputView out)
            throws IOException {
        CommitOwner owner = committable.owner();
        LengthPrefixedStrings.write(owner.jobId(), out);
        LengthPrefixedStrings.write(owner.operatorId(), out);
        LengthPrefixedStrings.write(owner.runId(), out);
        out.writeLong(committable.checkpointId());
        out.writeBoolean(committable.endOfInput());
        writeManifests(committable.dataManifests(), out);
        writeManifests(committable.deleteManifests(), out);
        writeManifests(committable.rewrittenDeleteManifests(), out);
        out.writeInt(committable.referencedDataFiles().size());
        for (String path : committable.referencedDataFiles()) {
            LengthPrefixedStrings.write(path, out);
        }
    }

    /**
     * Reads a committable written in format {@code version}, for formats that embed committables.
     *
     * @throws IOException when the version is unknown or the bytes are corrupt
     */
    public static IcebergCommittable read(int version, DataInputView in) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException(
                    "Unknown IcebergCommittable serialization version "
                            + version
                            + "; this sink reads versions "
                            + VERSION_1
                            + " and "
                            + VERSION_2);
        }
        String jobId = LengthPrefixedStrings.read(in);
        String operatorId = LengthPrefixedStrings.read(in);
        String runId = version >= VERSION_2 ? LengthPrefixedStrings.read(in) : "";
        long checkpointId = in.readLong();
        boolean endOfInput = in.readBoolean();
        List<ManifestFile> data = readManifests(in);
        List<ManifestFile> deletes = readManifests(in);
        List<ManifestFile> rewritten = readManifests(in);
        int referencedCount = readCount(in);
        List<String> referenced = new ArrayList<>(referencedCount);
        for (int i = 0; i < referencedCount; i++) {
            referenced.add(LengthPrefixedStrings.read(in));
        }
        return new IcebergCommittable(
                new CommitOwner(jobId, operatorId, runId),
                checkpointId,
                endOfInput,
                data,
                deletes,
                rewritten,
                referenced);
    }

    private static void writeManifests(List<ManifestFile> manifests, DataOutputView out)
            throws IOException {
        out.writeInt(manifests.size());
        for (ManifestFile manifest : manifests) {
            byte[] encoded = ManifestFiles.encode(manifest);
            out.writeInt(encoded.length);
            out.write(encoded);
        }
    }

    private static List<ManifestFile> readManifests(DataInputView in) throws IOException {
        int count = readCount(in);
        List<ManifestFile> manifests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = readCount(in);
            byte[] encoded = new byte[length];
            in.readFully(encoded);
            manifests.add(ManifestFiles.decode(encoded));
        }
        return manifests;
    }

    private static int readCount(DataInputView in) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt IcebergCommittable state: negative count " + count);
        }
        return count;
    }
}
