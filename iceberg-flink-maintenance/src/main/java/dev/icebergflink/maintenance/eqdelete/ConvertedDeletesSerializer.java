package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
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
 * Versioned serializer of a worker's {@link ConvertedDeletes}, for the way back to the committer.
 *
 * <p>Version {@value #VERSION_1}: the count (int) of added files, each as its data sequence number
 * (long) and its plain form ({@link ContentFileCodec#writePlain}); the count (int) and plain form
 * of each replaced file; the count (int) of referenced data files, each location a {@link
 * LengthPrefixedStrings} string; the deleted row count (long).
 */
@Internal
public final class ConvertedDeletesSerializer
        implements SimpleVersionedSerializer<ConvertedDeletes> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    private final TableMetadataLookup specs;

    /** A serializer that looks the files' partition specs up in {@code specsById}. */
    public ConvertedDeletesSerializer(Map<Integer, PartitionSpec> specsById) {
        this.specs = TableMetadataLookup.ofSpecs(specsById);
    }

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(ConvertedDeletes result) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(512);
        out.writeInt(result.added().size());
        for (ConvertedDeletes.AddedDelete added : result.added()) {
            out.writeLong(added.dataSequenceNumber());
            ContentFileCodec.writePlain(added.file(), specs.spec(added.file().specId()), out);
        }
        out.writeInt(result.replaced().size());
        for (DeleteFile replaced : result.replaced()) {
            ContentFileCodec.writePlain(replaced, specs.spec(replaced.specId()), out);
        }
        out.writeInt(result.referencedDataFiles().size());
        for (String location : result.referencedDataFiles()) {
            LengthPrefixedStrings.write(location, out);
        }
        out.writeLong(result.deletedRows());
        return out.getCopyOfBuffer();
    }

    @Override
    public ConvertedDeletes deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown converted-deletes version "
                            + version
                            + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int addedCount = count(in);
        List<ConvertedDeletes.AddedDelete> added = new ArrayList<>(addedCount);
        for (int i = 0; i < addedCount; i++) {
            long sequenceNumber = in.readLong();
            added.add(
                    new ConvertedDeletes.AddedDelete(
                            ContentFileCodec.readPlain(in, specs, DeleteFile.class),
                            sequenceNumber));
        }
        int replacedCount = count(in);
        List<DeleteFile> replaced = new ArrayList<>(replacedCount);
        for (int i = 0; i < replacedCount; i++) {
            replaced.add(ContentFileCodec.readPlain(in, specs, DeleteFile.class));
        }
        int referencedCount = count(in);
        List<String> referenced = new ArrayList<>(referencedCount);
        for (int i = 0; i < referencedCount; i++) {
            referenced.add(LengthPrefixedStrings.read(in));
        }
        long rows = in.readLong();
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt converted deletes: " + in.available() + " bytes left at the end");
        }
        return new ConvertedDeletes(added, replaced, referenced, rows);
    }

    private static int count(DataInputDeserializer in) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt converted deletes: negative count " + count);
        }
        return count;
    }
}
