package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.FileScanTaskCodec;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DeleteFile;

/**
 * Versioned serializer of one {@link ConversionUnit}, for the way from the planner to a worker.
 *
 * <p>The unit's equality deletes are written once, not with each data file they apply to.
 *
 * <p>Version {@value #VERSION_1}: the count (int) of equality delete files, each in the sequenced
 * form of {@link ContentFileCodec#writeSequenced}; then the data files' tasks in the layout of
 * {@link FileScanTaskCodec#writeTasks} (sequenced data files with their positional deletes).
 */
@Internal
public final class ConversionUnitSerializer implements SimpleVersionedSerializer<ConversionUnit> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    private final TableMetadataLookup metadata;
    private final FileScanTaskCodec tasks;

    /** A serializer that looks schemas and specs up in {@code metadata}. */
    public ConversionUnitSerializer(TableMetadataLookup metadata) {
        this.metadata = metadata;
        this.tasks = new FileScanTaskCodec(metadata);
    }

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(ConversionUnit unit) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeInt(unit.equalityDeletes().size());
        for (DeleteFile delete : unit.equalityDeletes()) {
            ContentFileCodec.writeSequenced(delete, metadata.spec(delete.specId()), out);
        }
        tasks.writeTasks(unit.dataFiles(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public ConversionUnit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown equality-delete conversion unit version "
                            + version
                            + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt conversion unit: negative delete count " + count);
        }
        List<DeleteFile> deletes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            deletes.add(ContentFileCodec.readSequencedDeleteFile(in, metadata));
        }
        ConversionUnit unit = new ConversionUnit(deletes, tasks.readTasks(in));
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt conversion unit: " + in.available() + " bytes left after the unit");
        }
        return unit;
    }
}
