package dev.icebergflink.maintenance.eqdelete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.FileScanTaskCodec;
import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import dev.icebergflink.tasks.codec.RestoredFileScanTask;
import dev.icebergflink.tasks.codec.SequencedFiles;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The versioned bytes of the equality-delete conversion: the plan header (planner to committer),
 * the units (planner to workers) and the converted deletes (workers to committer). Each is checked
 * against the layout its class comment documents, built here field by field, and read back.
 */
class ConversionSerializersTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    private static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("data").build();
    private static final Map<Integer, PartitionSpec> SPECS = Map.of(0, SPEC);
    private static final TableMetadataLookup METADATA =
            TableMetadataLookup.of(Map.of(0, SCHEMA), SPECS);

    private static DataFile dataFile(String name) {
        return DataFiles.builder(SPEC)
                .withPath("/warehouse/t/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("data=a")
                .withFileSizeInBytes(1000)
                .withRecordCount(10)
                .build();
    }

    private static DeleteFile equalityDelete(String name, long sequenceNumber) {
        DeleteFile file =
                FileMetadata.deleteFileBuilder(SPEC)
                        .ofEqualityDeletes(1)
                        .withPath("/warehouse/t/data/" + name + ".parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withPartitionPath("data=a")
                        .withFileSizeInBytes(50)
                        .withRecordCount(2)
                        .build();
        return SequencedFiles.deleteFile(file, sequenceNumber, sequenceNumber);
    }

    private static DeleteFile positionDelete(String name, String dataFile) {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofPositionDeletes()
                .withPath("/warehouse/t/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("data=a")
                .withFileSizeInBytes(40)
                .withRecordCount(1)
                .withReferencedDataFile(dataFile)
                .build();
    }

    @Test
    void headerIsTheSnapshotIdAndTheSequencedEqualityDeletes() throws IOException {
        List<DeleteFile> deletes = List.of(equalityDelete("eq-1", 5L), equalityDelete("eq-2", 7L));
        ConversionHeaderSerializer serializer = new ConversionHeaderSerializer(SPECS);

        byte[] bytes =
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        serializer, new ConversionHeader(42L, deletes));

        DataOutputSerializer expected = new DataOutputSerializer(256);
        expected.writeLong(42L);
        expected.writeInt(2);
        for (DeleteFile delete : deletes) {
            ContentFileCodec.writeSequenced(delete, SPEC, expected);
        }
        assertVersionedBody(bytes, ConversionHeaderSerializer.VERSION_1, expected);

        ConversionHeader read =
                SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
        assertThat(read.startingSnapshotId()).isEqualTo(42L);
        assertThat(read.removedEqualityDeletes())
                .extracting(DeleteFile::location, DeleteFile::dataSequenceNumber)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("/warehouse/t/data/eq-1.parquet", 5L),
                        org.assertj.core.groups.Tuple.tuple("/warehouse/t/data/eq-2.parquet", 7L));
        assertThat(read.removedEqualityDeletes().get(0).equalityFieldIds()).containsExactly(1);
    }

    @Test
    void unitIsItsEqualityDeletesOnceThenCoreFileTasks() throws IOException {
        DataFile data = SequencedFiles.dataFile(dataFile("a"), 3L, 3L);
        FileScanTask task =
                new RestoredFileScanTask(
                        data,
                        List.of(
                                SequencedFiles.deleteFile(
                                        positionDelete("pos", data.location()), 4L, 4L)),
                        SCHEMA,
                        SPEC,
                        Expressions.alwaysTrue(),
                        0L,
                        1000L);
        ConversionUnit unit = new ConversionUnit(List.of(equalityDelete("eq", 6L)), List.of(task));
        ConversionUnitSerializer serializer = new ConversionUnitSerializer(METADATA);

        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(serializer, unit);

        DataOutputSerializer expected = new DataOutputSerializer(256);
        expected.writeInt(1);
        ContentFileCodec.writeSequenced(unit.equalityDeletes().get(0), SPEC, expected);
        new FileScanTaskCodec(METADATA).writeTasks(List.of(task), expected);
        assertVersionedBody(bytes, ConversionUnitSerializer.VERSION_1, expected);

        ConversionUnit read =
                SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
        assertThat(read.equalityDeletes())
                .singleElement()
                .satisfies(
                        delete -> {
                            assertThat(delete.location()).isEqualTo("/warehouse/t/data/eq.parquet");
                            assertThat(delete.dataSequenceNumber()).isEqualTo(6L);
                        });
        FileScanTask readTask = read.dataFiles().get(0);
        assertThat(readTask.file().location()).isEqualTo(data.location());
        assertThat(readTask.file().dataSequenceNumber()).isEqualTo(3L);
        assertThat(readTask.deletes())
                .singleElement()
                .satisfies(
                        delete -> {
                            assertThat(delete.dataSequenceNumber()).isEqualTo(4L);
                            assertThat(delete.referencedDataFile()).isEqualTo(data.location());
                        });
        assertThat(read.dataBytes()).isEqualTo(1000L);
    }

    @Test
    void convertedDeletesAreAddedFilesWithSequenceNumbersThenReplacedFilesThenDataFiles()
            throws IOException {
        ConvertedDeletes converted =
                new ConvertedDeletes(
                        List.of(
                                new ConvertedDeletes.AddedDelete(
                                        positionDelete("new", "/warehouse/t/data/a.parquet"), 9L)),
                        List.of(positionDelete("old", "/warehouse/t/data/a.parquet")),
                        List.of("/warehouse/t/data/a.parquet"),
                        3L);
        ConvertedDeletesSerializer serializer = new ConvertedDeletesSerializer(SPECS);

        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(serializer, converted);

        DataOutputSerializer expected = new DataOutputSerializer(256);
        expected.writeInt(1);
        expected.writeLong(9L);
        ContentFileCodec.writePlain(converted.added().get(0).file(), SPEC, expected);
        expected.writeInt(1);
        ContentFileCodec.writePlain(converted.replaced().get(0), SPEC, expected);
        expected.writeInt(1);
        LengthPrefixedStrings.write("/warehouse/t/data/a.parquet", expected);
        expected.writeLong(3L);
        assertVersionedBody(bytes, ConvertedDeletesSerializer.VERSION_1, expected);

        ConvertedDeletes read =
                SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
        assertThat(read.added())
                .singleElement()
                .satisfies(
                        added -> {
                            assertThat(added.dataSequenceNumber()).isEqualTo(9L);
                            assertThat(added.file().location())
                                    .isEqualTo("/warehouse/t/data/new.parquet");
                            assertThat(added.file().referencedDataFile())
                                    .isEqualTo("/warehouse/t/data/a.parquet");
                        });
        assertThat(read.replaced())
                .extracting(DeleteFile::location)
                .containsExactly("/warehouse/t/data/old.parquet");
        assertThat(read.referencedDataFiles()).containsExactly("/warehouse/t/data/a.parquet");
        assertThat(read.deletedRows()).isEqualTo(3L);
        assertThat(serializer.deserialize(1, serializer.serialize(ConvertedDeletes.NONE)))
                .isEqualTo(ConvertedDeletes.NONE);
    }

    @Test
    void emptyFormsMatchTheirLiteralBytes() throws IOException {
        // version 1, body length, then the body: frozen so that a layout change is noticed
        assertThat(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                new ConversionHeaderSerializer(SPECS),
                                new ConversionHeader(42L, List.of())))
                .isEqualTo(bytes("00000001 0000000c 000000000000002a 00000000"));
        assertThat(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                new ConvertedDeletesSerializer(SPECS), ConvertedDeletes.NONE))
                .isEqualTo(
                        bytes(
                                "00000001 00000014 00000000 00000000 00000000"
                                        + " 0000000000000000"));
        assertThat(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                new ConversionUnitSerializer(METADATA),
                                new ConversionUnit(List.of(), List.of())))
                .isEqualTo(bytes("00000001 0000000c 00000000 00000000 00000000"));
    }

    private static byte[] bytes(String hex) {
        return java.util.HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    @Test
    void otherVersionsAndTrailingBytesFail() throws IOException {
        ConversionHeaderSerializer header = new ConversionHeaderSerializer(SPECS);
        byte[] headerBytes = header.serialize(new ConversionHeader(1L, List.of()));
        ConversionUnitSerializer unit = new ConversionUnitSerializer(METADATA);
        byte[] unitBytes = unit.serialize(new ConversionUnit(List.of(), List.of()));
        ConvertedDeletesSerializer converted = new ConvertedDeletesSerializer(SPECS);
        byte[] convertedBytes = converted.serialize(ConvertedDeletes.NONE);

        assertThatThrownBy(() -> header.deserialize(2, headerBytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> unit.deserialize(2, unitBytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> converted.deserialize(2, convertedBytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(
                        () ->
                                header.deserialize(
                                        1, Arrays.copyOf(headerBytes, headerBytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left");
        assertThatThrownBy(
                        () -> unit.deserialize(1, Arrays.copyOf(unitBytes, unitBytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left");
        assertThatThrownBy(
                        () ->
                                converted.deserialize(
                                        1,
                                        Arrays.copyOf(convertedBytes, convertedBytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left");
    }

    /** {@code bytes} are the version (int), the body's length (int), then exactly the body. */
    private static void assertVersionedBody(
            byte[] bytes, int version, DataOutputSerializer expectedBody) {
        byte[] body = expectedBody.getCopyOfBuffer();
        java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(bytes, 0, 8);
        assertThat(header.getInt()).isEqualTo(version);
        assertThat(header.getInt()).isEqualTo(body.length);
        assertThat(Arrays.copyOfRange(bytes, 8, bytes.length)).isEqualTo(body);
    }
}
