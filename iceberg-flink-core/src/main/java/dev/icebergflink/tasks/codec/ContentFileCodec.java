package dev.icebergflink.tasks.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.JsonUtil;

/**
 * Data and delete files in serialized state, in Iceberg's public JSON form of a content file
 * ({@link ContentFileParser}, the format of the REST scan-planning API), framed by {@link
 * LengthPrefixedStrings}.
 *
 * <p>It exists so that every state format of the connector (source splits, sink write results, work
 * units of the maintenance actions) writes files the same way instead of each with its own copy.
 * The partition spec is never written: the JSON carries the spec id, and the reader looks the spec
 * up in a {@link TableMetadataLookup}.
 *
 * <p>Two layouts:
 *
 * <ul>
 *   <li>the <em>plain</em> form ({@link #writePlain}): the JSON only;
 *   <li>the <em>sequenced</em> form ({@link #writeSequenced}): the spec id (int), the JSON, then
 *       the data sequence number and the file sequence number, each a presence byte and, when
 *       present, a long. Iceberg's JSON leaves sequence numbers out, and a restored scan task needs
 *       them (deletes apply by sequence number).
 * </ul>
 */
@Internal
public final class ContentFileCodec {

    private ContentFileCodec() {}

    /** Writes {@code file} in the plain form; {@code spec} is the file's partition spec. */
    public static void writePlain(ContentFile<?> file, PartitionSpec spec, DataOutputView out)
            throws IOException {
        LengthPrefixedStrings.write(ContentFileParser.toJson(file, spec), out);
    }

    /**
     * Reads a file written by {@link #writePlain}.
     *
     * @param type {@code DataFile.class} or {@code DeleteFile.class}
     * @throws IOException when the bytes are corrupt or hold another kind of file
     * @throws IllegalStateException when {@code metadata} has no spec with the file's spec id
     */
    public static <F extends ContentFile<F>> F readPlain(
            DataInputView in, TableMetadataLookup metadata, Class<F> type) throws IOException {
        JsonNode node = parse(LengthPrefixedStrings.read(in));
        int specId = JsonUtil.getInt("spec-id", node);
        return expect(ContentFileParser.fromJson(node, metadata.specsIncluding(specId)), type);
    }

    /** Writes {@code file} in the sequenced form; {@code spec} is the file's partition spec. */
    public static void writeSequenced(ContentFile<?> file, PartitionSpec spec, DataOutputView out)
            throws IOException {
        out.writeInt(file.specId());
        LengthPrefixedStrings.write(ContentFileParser.toJson(file, spec), out);
        OptionalLongs.write(file.dataSequenceNumber(), out);
        OptionalLongs.write(file.fileSequenceNumber(), out);
    }

    /**
     * Reads a data file written by {@link #writeSequenced}, with its sequence numbers.
     *
     * @throws IOException when the bytes are corrupt or hold a delete file
     * @throws IllegalStateException when {@code metadata} has no spec with the file's spec id
     */
    public static DataFile readSequencedDataFile(DataInputView in, TableMetadataLookup metadata)
            throws IOException {
        Sequenced read = readSequenced(in, metadata);
        DataFile file = expect(read.file, DataFile.class);
        return SequencedFiles.dataFile(file, read.dataSequenceNumber, read.fileSequenceNumber);
    }

    /**
     * Reads a delete file written by {@link #writeSequenced}, with its sequence numbers.
     *
     * @throws IOException when the bytes are corrupt or hold a data file
     * @throws IllegalStateException when {@code metadata} has no spec with the file's spec id
     */
    public static DeleteFile readSequencedDeleteFile(DataInputView in, TableMetadataLookup metadata)
            throws IOException {
        Sequenced read = readSequenced(in, metadata);
        DeleteFile file = expect(read.file, DeleteFile.class);
        return SequencedFiles.deleteFile(file, read.dataSequenceNumber, read.fileSequenceNumber);
    }

    private static Sequenced readSequenced(DataInputView in, TableMetadataLookup metadata)
            throws IOException {
        int specId = in.readInt();
        // looked up before the JSON is parsed, so that a missing spec is reloaded first
        var specs = metadata.specsIncluding(specId);
        String json = LengthPrefixedStrings.read(in);
        Long dataSequenceNumber = OptionalLongs.read(in);
        Long fileSequenceNumber = OptionalLongs.read(in);
        ContentFile<?> file = ContentFileParser.fromJson(parse(json), specs);
        return new Sequenced(file, dataSequenceNumber, fileSequenceNumber);
    }

    private static JsonNode parse(String json) throws IOException {
        try {
            return JsonUtil.mapper().readTree(json);
        } catch (IOException e) {
            throw new IOException("Corrupt content file in serialized state: " + json, e);
        }
    }

    private static <F> F expect(ContentFile<?> file, Class<F> type) throws IOException {
        if (!type.isInstance(file)) {
            throw new IOException(
                    "Corrupt serialized state: expected a "
                            + type.getSimpleName()
                            + " but found a "
                            + file.content()
                            + " file "
                            + file.location());
        }
        return type.cast(file);
    }

    /** A file read in the sequenced form, before its sequence numbers are put back. */
    private record Sequenced(
            ContentFile<?> file, Long dataSequenceNumber, Long fileSequenceNumber) {}
}
