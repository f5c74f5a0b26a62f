package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;

/**
 * Versioned serializer of a {@link ConversionHeader}, which travels from the planner to the
 * committer beside the work units.
 *
 * <p>Version {@value #VERSION_1}: the starting snapshot id (long), the count (int) of removed
 * equality delete files, then each in the sequenced form of {@link ContentFileCodec#writeSequenced}
 * (the commit validates with their data sequence numbers).
 */
@Internal
public final class ConversionHeaderSerializer
        implements SimpleVersionedSerializer<ConversionHeader> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    private final TableMetadataLookup specs;

    /** A serializer that looks the files' partition specs up in {@code specsById}. */
    public ConversionHeaderSerializer(Map<Integer, PartitionSpec> specsById) {
        this.specs = TableMetadataLookup.ofSpecs(specsById);
    }

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(ConversionHeader header) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeLong(header.startingSnapshotId());
        out.writeInt(header.removedEqualityDeletes().size());
        for (DeleteFile delete : header.removedEqualityDeletes()) {
            ContentFileCodec.writeSequenced(delete, specs.spec(delete.specId()), out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public ConversionHeader deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown equality-delete conversion plan version "
                            + version
                            + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long snapshotId = in.readLong();
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt conversion plan: negative file count " + count);
        }
        List<DeleteFile> deletes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            deletes.add(ContentFileCodec.readSequencedDeleteFile(in, specs));
        }
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt conversion plan: " + in.available() + " bytes left after the files");
        }
        return new ConversionHeader(snapshotId, deletes);
    }
}
