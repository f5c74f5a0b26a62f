package dev.icebergflink.source.split;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * Versioned serializer of {@link IcebergSourceSplit}s, used for splits sent to readers and for
 * checkpointed split state (a named, versioned format instead of Java serialization, so that every
 * released format stays readable).
 *
 * <p>It exists to keep splits small (a split that embeds its schema and partition specs makes
 * checkpoints of many pending splits large): a split stores the id of its schema and, per file, the
 * id of its partition spec; the schema and specs themselves come from a {@link SplitTableMetadata}
 * (normally the table, loaded lazily and reloaded for ids created after the job started). Data and
 * delete files are written in Iceberg's JSON form ({@code ContentFileParser}) plus their sequence
 * numbers, residuals with {@link ExpressionParser}.
 *
 * <p>Version 1 layout: split id (UTF), file offset (int), record offset (long), schema id (int),
 * file-task count (int), then per file task: the data file, its delete-file count (int) and delete
 * files, the residual (length-prefixed UTF-8 JSON), start (long) and length (long). A content file
 * is written as spec id (int), length-prefixed UTF-8 JSON, data sequence number and file sequence
 * number (each a presence byte and a long).
 */
@Internal
public final class IcebergSourceSplitSerializer
        implements SimpleVersionedSerializer<IcebergSourceSplit> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    /** The version {@link #serialize} writes. */
    public static final int CURRENT_VERSION = VERSION_1;

    private final SplitTableMetadata metadata;

    public IcebergSourceSplitSerializer(SplitTableMetadata metadata) {
        this.metadata = metadata;
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
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown Iceberg source split version "
                            + version
                            + "; this connector reads versions [1]");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        IcebergSourceSplit split = read(in);
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
        Collection<FileScanTask> files = split.task().files();
        int schemaId = files.isEmpty() ? 0 : files.iterator().next().schema().schemaId();
        out.writeInt(schemaId);
        out.writeInt(files.size());
        for (FileScanTask file : files) {
            writeContentFile(file.file(), file.spec(), out);
            List<DeleteFile> deletes = file.deletes();
            out.writeInt(deletes.size());
            for (DeleteFile delete : deletes) {
                writeContentFile(delete, specOf(delete, file), out);
            }
            writeString(ExpressionParser.toJson(file.residual()), out);
            out.writeLong(file.start());
            out.writeLong(file.length());
        }
    }

    /** Reads one split written by {@link #write} in the current version. */
    public IcebergSourceSplit read(DataInputView in) throws IOException {
        String splitId = in.readUTF();
        int fileOffset = in.readInt();
        long recordOffset = in.readLong();
        int schemaId = in.readInt();
        int count = in.readInt();
        List<FileScanTask> files = new ArrayList<>(count);
        Schema schema = count == 0 ? null : metadata.schema(schemaId);
        for (int i = 0; i < count; i++) {
            int specId = in.readInt();
            Map<Integer, PartitionSpec> specs = metadata.specsIncluding(specId);
            DataFile dataFile = (DataFile) readContentFile(specs, in, true);
            int deleteCount = in.readInt();
            List<DeleteFile> deletes = new ArrayList<>(deleteCount);
            for (int d = 0; d < deleteCount; d++) {
                Map<Integer, PartitionSpec> deleteSpecs = metadata.specsIncluding(in.readInt());
                deletes.add((DeleteFile) readContentFile(deleteSpecs, in, false));
            }
            Expression residual = ExpressionParser.fromJson(readString(in));
            long start = in.readLong();
            long length = in.readLong();
            files.add(
                    new RestoredFileScanTask(
                            dataFile, deletes, schema, specs.get(specId), residual, start, length));
        }
        return IcebergSourceSplit.of(
                splitId, new BaseCombinedScanTask(files), fileOffset, recordOffset);
    }

    private static PartitionSpec specOf(DeleteFile delete, FileScanTask task) {
        if (delete.specId() == task.spec().specId()) {
            return task.spec();
        }
        // A delete file may come from an older spec; its JSON form needs that spec only for the
        // partition tuple, whose values are written by position from the file itself.
        return null;
    }

    private void writeContentFile(ContentFile<?> file, PartitionSpec spec, DataOutputView out)
            throws IOException {
        PartitionSpec effective =
                spec != null ? spec : metadata.specsIncluding(file.specId()).get(file.specId());
        out.writeInt(file.specId());
        writeString(ContentFileParser.toJson(file, effective), out);
        writeNullableLong(file.dataSequenceNumber(), out);
        writeNullableLong(file.fileSequenceNumber(), out);
    }

    private static ContentFile<?> readContentFile(
            Map<Integer, PartitionSpec> specs, DataInputView in, boolean data) throws IOException {
        String json = readString(in);
        Long dataSequenceNumber = readNullableLong(in);
        Long fileSequenceNumber = readNullableLong(in);
        JsonNode node;
        try {
            node = JsonUtil.mapper().readTree(json);
        } catch (IOException e) {
            throw new IOException("Corrupt content file in an Iceberg source split: " + json, e);
        }
        ContentFile<?> file = ContentFileParser.fromJson(node, specs);
        if (data) {
            if (!(file instanceof DataFile dataFile)) {
                throw new IOException("Expected a data file in a split, got " + file.content());
            }
            return SequencedFiles.dataFile(dataFile, dataSequenceNumber, fileSequenceNumber);
        }
        if (!(file instanceof DeleteFile deleteFile)) {
            throw new IOException("Expected a delete file in a split, got " + file.content());
        }
        return SequencedFiles.deleteFile(deleteFile, dataSequenceNumber, fileSequenceNumber);
    }

    private static void writeString(String value, DataOutputView out) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputView in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("Corrupt Iceberg source split: negative length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
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
