package dev.icebergflink.maintenance.rewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.tasks.codec.FileScanTaskCodec;
import dev.icebergflink.tasks.codec.RestoredFileScanTask;
import dev.icebergflink.tasks.codec.SequencedFiles;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.CombinedScanTask;
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

/** The versioned bytes in which rewrite units go to the tasks and written files come back. */
class RewriteSerializersTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    private static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("data").build();
    private static final TableMetadataLookup METADATA =
            TableMetadataLookup.of(Map.of(0, SCHEMA), Map.of(0, SPEC));

    private static DataFile dataFile(String name, long records) {
        return DataFiles.builder(SPEC)
                .withPath("/warehouse/t/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("data=a")
                .withFileSizeInBytes(records * 100)
                .withRecordCount(records)
                .build();
    }

    private static CombinedScanTask unit() {
        DeleteFile deletes =
                FileMetadata.deleteFileBuilder(SPEC)
                        .ofPositionDeletes()
                        .withPath("/warehouse/t/data/deletes.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withPartitionPath("data=a")
                        .withFileSizeInBytes(50)
                        .withRecordCount(2)
                        .build();
        FileScanTask first =
                new RestoredFileScanTask(
                        SequencedFiles.dataFile(dataFile("a", 10), 3L, 3L),
                        List.of(SequencedFiles.deleteFile(deletes, 4L, 4L)),
                        SCHEMA,
                        SPEC,
                        Expressions.alwaysTrue(),
                        0,
                        1000);
        FileScanTask second =
                new RestoredFileScanTask(
                        SequencedFiles.dataFile(dataFile("b", 5), 2L, 2L),
                        List.of(),
                        SCHEMA,
                        SPEC,
                        Expressions.alwaysTrue(),
                        0,
                        500);
        return new BaseCombinedScanTask(first, second);
    }

    @Test
    void unitsAreVersionPrefixedCoreFileTaskBytes() throws IOException {
        CombinedScanTask unit = unit();
        RewriteUnitSerializer serializer = new RewriteUnitSerializer(METADATA);

        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(serializer, unit);

        DataOutputSerializer expected = new DataOutputSerializer(256);
        new FileScanTaskCodec(METADATA).writeTasks(unit.files(), expected);
        byte[] body = expected.getCopyOfBuffer();
        // version (int), length (int), then exactly core's file-task layout
        java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(bytes, 0, 8);
        assertThat(header.getInt()).isEqualTo(RewriteUnitSerializer.VERSION_1);
        assertThat(header.getInt()).isEqualTo(body.length);
        assertThat(Arrays.copyOfRange(bytes, 8, bytes.length)).isEqualTo(body);
    }

    @Test
    void unitsRoundTripWithDeletesAndSequenceNumbers() throws IOException {
        RewriteUnitSerializer serializer = new RewriteUnitSerializer(METADATA);

        CombinedScanTask read =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        serializer,
                        SimpleVersionedSerialization.writeVersionAndSerialize(serializer, unit()));

        List<FileScanTask> files = List.copyOf(read.files());
        assertThat(files)
                .extracting(task -> task.file().location())
                .containsExactly("/warehouse/t/data/a.parquet", "/warehouse/t/data/b.parquet");
        assertThat(files.get(0).file().dataSequenceNumber()).isEqualTo(3L);
        assertThat(files.get(0).length()).isEqualTo(1000L);
        assertThat(files.get(0).deletes())
                .singleElement()
                .satisfies(
                        delete -> {
                            assertThat(delete.location())
                                    .isEqualTo("/warehouse/t/data/deletes.parquet");
                            assertThat(delete.dataSequenceNumber()).isEqualTo(4L);
                        });
        assertThat(files.get(1).deletes()).isEmpty();
        assertThat(files.get(1).spec()).isSameAs(SPEC);
    }

    @Test
    void unitsOfAnotherVersionOrWithTrailingBytesFail() throws IOException {
        RewriteUnitSerializer serializer = new RewriteUnitSerializer(METADATA);
        byte[] bytes = serializer.serialize(unit());
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);

        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> serializer.deserialize(1, longer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left");
    }

    @Test
    void writtenFilesRoundTrip() throws IOException {
        WrittenFilesSerializer serializer = new WrittenFilesSerializer(Map.of(0, SPEC));
        List<DataFile> files = List.of(dataFile("new-1", 12), dataFile("new-2", 3));

        List<DataFile> read =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        serializer,
                        SimpleVersionedSerialization.writeVersionAndSerialize(serializer, files));

        assertThat(read)
                .extracting(DataFile::location, DataFile::recordCount, DataFile::specId)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "/warehouse/t/data/new-1.parquet", 12L, 0),
                        org.assertj.core.groups.Tuple.tuple(
                                "/warehouse/t/data/new-2.parquet", 3L, 0));
        assertThat(read.get(0).partition().get(0, String.class)).isEqualTo("a");
        assertThat(serializer.deserialize(1, serializer.serialize(List.of()))).isEmpty();
    }

    @Test
    void writtenFilesOfAnotherVersionFail() throws IOException {
        WrittenFilesSerializer serializer = new WrittenFilesSerializer(Map.of(0, SPEC));
        byte[] bytes = serializer.serialize(List.of(dataFile("x", 1)));

        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
    }

    @Test
    void aRewriteItemIsTheRollSizeTheGroupThenTheUnit() throws IOException {
        RewriteItemSerializer serializer = new RewriteItemSerializer();
        RewriteItemSerializer.Item item =
                new RewriteItemSerializer.Item(0x10L, 3, new byte[] {7, 8});
        byte[] bytes = serializer.serialize(item);

        assertThat(serializer.getVersion()).isEqualTo(RewriteItemSerializer.VERSION_2);
        assertThat(java.util.HexFormat.of().formatHex(bytes))
                .isEqualTo("0000000000000010" + "00000003" + "00000002" + "0708");
        RewriteItemSerializer.Item read = serializer.deserialize(2, bytes);
        assertThat(read.writeTargetFileSize()).isEqualTo(0x10L);
        assertThat(read.group()).isEqualTo(3);
        assertThat(read.unit()).containsExactly(7, 8);
        assertThatThrownBy(() -> serializer.deserialize(2, Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Corrupt rewrite item");
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
    }

    @Test
    void aVersionOneRewriteItemIsReadAsGroupZero() throws IOException {
        byte[] versionOne =
                java.util.HexFormat.of().parseHex("0000000000000010" + "00000002" + "0708");

        RewriteItemSerializer.Item read = new RewriteItemSerializer().deserialize(1, versionOne);

        assertThat(read.writeTargetFileSize()).isEqualTo(0x10L);
        assertThat(read.group()).isZero();
        assertThat(read.unit()).containsExactly(7, 8);
    }

    @Test
    void aRewriteResultIsTheGroupThenTheWrittenFiles() throws IOException {
        RewriteResultSerializer serializer = new RewriteResultSerializer(Map.of(0, SPEC));
        List<DataFile> files = List.of(dataFile("new-1", 12), dataFile("new-2", 3));

        byte[] bytes = serializer.serialize(new RewriteResultSerializer.Result(5, files));

        assertThat(serializer.getVersion()).isEqualTo(RewriteResultSerializer.VERSION_2);
        assertThat(Arrays.copyOfRange(bytes, 0, 4)).containsExactly(0, 0, 0, 5);
        assertThat(Arrays.copyOfRange(bytes, 4, bytes.length))
                .isEqualTo(new WrittenFilesSerializer(Map.of(0, SPEC)).serialize(files));
        RewriteResultSerializer.Result read = serializer.deserialize(2, bytes);
        assertThat(read.group()).isEqualTo(5);
        assertThat(read.files())
                .extracting(DataFile::location)
                .containsExactly(
                        "/warehouse/t/data/new-1.parquet", "/warehouse/t/data/new-2.parquet");
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[] {0, 1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("no group index");
    }

    @Test
    void aVersionOneRewriteResultIsTheWrittenFilesOfGroupZero() throws IOException {
        // what earlier releases sent back from a worker: version-prefixed written files
        byte[] versionOne =
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        new WrittenFilesSerializer(Map.of(0, SPEC)), List.of(dataFile("old", 4)));

        RewriteResultSerializer.Result read =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        new RewriteResultSerializer(Map.of(0, SPEC)), versionOne);

        assertThat(read.group()).isZero();
        assertThat(read.files())
                .extracting(DataFile::location)
                .containsExactly("/warehouse/t/data/old.parquet");
    }

    private static DeleteFile positionDeletes(String name) {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofPositionDeletes()
                .withPath("/warehouse/t/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("data=a")
                .withFileSizeInBytes(50)
                .withRecordCount(2)
                .build();
    }

    @Test
    void aRewriteHeaderListsEachGroupsFiles() throws IOException {
        RewriteHeaderSerializer serializer = new RewriteHeaderSerializer(Map.of(0, SPEC));
        DataFile a = dataFile("a", 10);
        DataFile b = dataFile("b", 5);
        DeleteFile dangling = positionDeletes("pos");
        RewriteHeader header =
                new RewriteHeader(
                        42L,
                        List.of(
                                new RewriteHeader.Group(List.of(a, b), List.of(dangling)),
                                new RewriteHeader.Group(List.of(), List.of())));

        byte[] bytes = serializer.serialize(header);

        // snapshot id, group count, then per group: data files (count + plain form), deletes
        DataOutputSerializer expected = new DataOutputSerializer(1024);
        expected.writeLong(42L);
        expected.writeInt(2);
        expected.writeInt(2);
        dev.icebergflink.tasks.codec.ContentFileCodec.writePlain(a, SPEC, expected);
        dev.icebergflink.tasks.codec.ContentFileCodec.writePlain(b, SPEC, expected);
        expected.writeInt(1);
        dev.icebergflink.tasks.codec.ContentFileCodec.writePlain(dangling, SPEC, expected);
        expected.writeInt(0);
        expected.writeInt(0);
        assertThat(serializer.getVersion()).isEqualTo(RewriteHeaderSerializer.VERSION_2);
        assertThat(bytes).isEqualTo(expected.getCopyOfBuffer());

        RewriteHeader read = serializer.deserialize(2, bytes);
        assertThat(read.startingSnapshotId()).isEqualTo(42L);
        assertThat(read.groupCount()).isEqualTo(2);
        assertThat(read.groups().get(0).rewrittenDataFiles())
                .extracting(DataFile::location)
                .containsExactly("/warehouse/t/data/a.parquet", "/warehouse/t/data/b.parquet");
        assertThat(read.groups().get(0).danglingDeleteFiles())
                .singleElement()
                .satisfies(
                        delete -> {
                            assertThat(delete.location())
                                    .isEqualTo("/warehouse/t/data/pos.parquet");
                            assertThat(delete.recordCount()).isEqualTo(2L);
                        });
        assertThat(read.groups().get(1).rewrittenDataFiles()).isEmpty();
        assertThat(read.rewrittenDataFiles()).hasSize(2);
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
        assertThatThrownBy(() -> serializer.deserialize(2, Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left");
    }

    @Test
    void aVersionOneRewriteHeaderIsOneGroupOfAllItsFiles() throws IOException {
        RewriteHeaderSerializer serializer = new RewriteHeaderSerializer(Map.of(0, SPEC));
        // version 1: snapshot id, group count, then the files of all groups together
        DataOutputSerializer versionOne = new DataOutputSerializer(1024);
        versionOne.writeLong(42L);
        versionOne.writeInt(3);
        versionOne.writeInt(2);
        dev.icebergflink.tasks.codec.ContentFileCodec.writePlain(
                dataFile("a", 10), SPEC, versionOne);
        dev.icebergflink.tasks.codec.ContentFileCodec.writePlain(
                dataFile("b", 5), SPEC, versionOne);
        versionOne.writeInt(1);
        dev.icebergflink.tasks.codec.ContentFileCodec.writePlain(
                positionDeletes("pos"), SPEC, versionOne);

        RewriteHeader read = serializer.deserialize(1, versionOne.getCopyOfBuffer());

        assertThat(read.startingSnapshotId()).isEqualTo(42L);
        assertThat(read.groups())
                .singleElement()
                .satisfies(
                        group -> {
                            assertThat(group.rewrittenDataFiles())
                                    .extracting(DataFile::location)
                                    .containsExactly(
                                            "/warehouse/t/data/a.parquet",
                                            "/warehouse/t/data/b.parquet");
                            assertThat(group.danglingDeleteFiles())
                                    .extracting(DeleteFile::location)
                                    .containsExactly("/warehouse/t/data/pos.parquet");
                        });

        DataOutputSerializer emptyVersionOne = new DataOutputSerializer(16);
        emptyVersionOne.writeLong(-1L);
        emptyVersionOne.writeInt(0);
        emptyVersionOne.writeInt(0);
        emptyVersionOne.writeInt(0);
        assertThat(serializer.deserialize(1, emptyVersionOne.getCopyOfBuffer()).groups()).isEmpty();
    }
}
