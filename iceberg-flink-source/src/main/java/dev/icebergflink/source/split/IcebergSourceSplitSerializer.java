package dev.icebergflink.source.split;

import dev.icebergflink.tasks.codec.ChangeTaskCodec;
import dev.icebergflink.tasks.codec.FileScanTaskCodec;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.FileScanTask;

/**
 * Versioned serializer of {@link IcebergSourceSplit}s, used for splits sent to readers and for
 * checkpointed split state (a named, versioned format instead of Java serialization, so that every
 * released format stays readable).
 *
 * <p>It exists to keep splits small (a split that embeds its schema and partition specs makes
 * checkpoints of many pending splits large): a split stores the id of its schema and, per file, the
 * id of its partition spec; the schema and specs themselves come from a {@link TableMetadataLookup}
 * (normally the table, loaded lazily and reloaded for ids created after the job started). The file
 * tasks are written by core's {@link FileScanTaskCodec}, shared with the other state formats.
 *
 * <p>Version 1 layout: split id (UTF), file offset (int), record offset (long), then the split's
 * file tasks in the layout of {@link FileScanTaskCodec#writeTasks}: schema id (int), file-task
 * count (int), then per file task: the data file, its delete-file count (int) and delete files, the
 * residual (length-prefixed UTF-8 JSON), start (long) and length (long). A content file is written
 * as spec id (int), length-prefixed UTF-8 JSON, data sequence number and file sequence number (each
 * a presence byte and a long).
 *
 * <p>Version 2 layout: version 1's, then the change part of a changelog split in the layout of
 * {@link ChangeTaskCodec#writeChanges} (a single 0 byte for a split of plain file tasks).
 */
@Internal
public final class IcebergSourceSplitSerializer
        implements SimpleVersionedSerializer<IcebergSourceSplit> {

    /** The first version: plain file tasks; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    /** Version 1 plus the changes of changelog splits. */
    public static final int VERSION_2 = 2;

    /** The version {@link #serialize} writes. */
    public static final int CURRENT_VERSION = VERSION_2;

    private final FileScanTaskCodec tasks;
    private final ChangeTaskCodec changes;

    public IcebergSourceSplitSerializer(TableMetadataLookup metadata) {
        this.tasks = new FileScanTaskCodec(metadata);
        this.changes = new ChangeTaskCodec(metadata);
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(IcebergSourceSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public IcebergSourceSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException(
                    "Unknown Iceberg source split version "
                            + version
                            + "; this connector reads versions [1, 2]");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        IcebergSourceSplit split = read(version, in);
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt Iceberg source split: "
                            + in.available()
                            + " bytes left after split "
                            + split.splitId());
        }
        return split;
    }

    /** Writes one split in the current version; for state serializers that embed splits. */
    public void write(IcebergSourceSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.splitId());
        out.writeInt(split.fileOffset());
        out.writeLong(split.recordOffset());
        List<FileScanTask> files = List.copyOf(split.task().files());
        tasks.writeTasks(files, out);
        changes.writeChanges(files, out);
    }

    /** Reads one split written by {@link #write} in the current version. */
    public IcebergSourceSplit read(DataInputView in) throws IOException {
        return read(CURRENT_VERSION, in);
    }

    private IcebergSourceSplit read(int version, DataInputView in) throws IOException {
        String splitId = in.readUTF();
        int fileOffset = in.readInt();
        long recordOffset = in.readLong();
        List<FileScanTask> files = tasks.readTasks(in);
        if (version >= VERSION_2) {
            files = changes.readChanges(files, in);
        }
        return IcebergSourceSplit.of(
                splitId, new BaseCombinedScanTask(files), fileOffset, recordOffset);
    }
}
