package dev.icebergflink.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.SourceTestTables;
import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import dev.icebergflink.tasks.codec.LoadingTableMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split serializer: round trips, golden bytes of versions 1 and 2 (changelog splits),
 * compactness, late specs.
 */
class IcebergSourceSplitSerializerTest {

    private final IcebergSourceSplitSerializer serializer =
            new IcebergSourceSplitSerializer(TestingSplits.METADATA);

    @Test
    void roundTripKeepsIdPositionFilesDeletesResidualsAndSequenceNumbers() throws IOException {
        IcebergSourceSplit split = TestingSplits.split("x");
        IcebergSourceSplit copy =
                serializer.deserialize(
                        IcebergSourceSplitSerializer.CURRENT_VERSION, serializer.serialize(split));
        assertSameSplit(copy, split);
        // Serializing the copy gives the same bytes: nothing is lost or reordered.
        assertThat(serializer.serialize(copy)).isEqualTo(serializer.serialize(split));
    }

    @Test
    void version1GoldenBytesStillRead() throws IOException {
        IcebergSourceSplit split = TestingSplits.split("golden");
        byte[] golden = TestingSplits.golden("iceberg-source-split-v1.bin", null);
        assertSameSplit(
                serializer.deserialize(IcebergSourceSplitSerializer.VERSION_1, golden), split);
        // version 2 writes a plain split as version 1 did, plus an empty change part
        byte[] current = serializer.serialize(split);
        assertThat(current).hasSize(golden.length + 1).startsWith(golden).endsWith(0);
    }

    @Test
    void version2GoldenBytesOfAChangelogSplit() throws IOException {
        IcebergSourceSplit split = TestingSplits.changeSplit("golden");
        assertThat(serializer.getVersion()).isEqualTo(IcebergSourceSplitSerializer.VERSION_2);
        byte[] bytes = serializer.serialize(split);
        byte[] golden = TestingSplits.golden("iceberg-source-split-v2.bin", bytes);
        assertThat(bytes).isEqualTo(golden);
        IcebergSourceSplit restored =
                serializer.deserialize(IcebergSourceSplitSerializer.VERSION_2, golden);
        assertSameSplit(restored, split);
        List<FileScanTask> files = new ArrayList<>(restored.task().files());
        assertThat(files).allMatch(ChangeFileScanTask.class::isInstance);
        ChangeFileScanTask removed = (ChangeFileScanTask) files.get(0);
        ChangeFileScanTask added = (ChangeFileScanTask) files.get(1);
        assertThat(removed.type()).isEqualTo(ChangeType.DELETED_ROWS);
        assertThat(removed.commitSnapshotId()).isEqualTo(42L);
        assertThat(removed.commitTimestampMillis()).isEqualTo(TestingSplits.COMMITTED_AT);
        assertThat(removed.addedDeletes())
                .singleElement()
                .satisfies(
                        delete -> {
                            assertThat(delete.location()).endsWith("golden-eq.parquet");
                            assertThat(delete.equalityFieldIds()).containsExactly(1);
                            assertThat(delete.dataSequenceNumber()).isEqualTo(7L);
                        });
        assertThat(added.type()).isEqualTo(ChangeType.ADDED_ROWS);
        assertThat(added.addedDeletes()).isEmpty();
        assertThat(added.deletes()).hasSize(1);
        // the same files with another change type or snapshot are another split
        assertThat(split.splitId()).isNotEqualTo(TestingSplits.split("golden").splitId());
    }

    @Test
    void splitsDoNotRepeatTheSchemaOrSpec() throws IOException {
        String text =
                new String(serializer.serialize(TestingSplits.split("x")), StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("\"fields\"").doesNotContain("timestamp");
    }

    @Test
    void unknownVersionAndTrailingBytesFail() throws IOException {
        byte[] bytes = serializer.serialize(TestingSplits.split("x"));
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(2, longer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("bytes left");
    }

    @Test
    void specsAddedAfterTheSerializerLoadedTheTableAreFound(@TempDir Path dir) throws Exception {
        String location = dir.resolve("t").toString();
        Table table = SourceTestTables.create(location, 2);
        SourceTestTables.append(table, 0, 3);
        IcebergSourceSplitSerializer loading =
                new IcebergSourceSplitSerializer(
                        new LoadingTableMetadata(TableLoader.fromHadoopTable(location)));
        IcebergSourceSplit before = plan(table).get(0);
        assertSameSplit(loading.deserialize(2, loading.serialize(before)), before);

        table.updateSpec().addField("data").commit();
        // Only metadata matters here: the file is planned and serialized, never read.
        table.newAppend()
                .appendFile(
                        org.apache.iceberg.DataFiles.builder(table.spec())
                                .withPath(location + "/data/late.parquet")
                                .withFormat(org.apache.iceberg.FileFormat.PARQUET)
                                .withPartitionPath("data=late")
                                .withFileSizeInBytes(10)
                                .withRecordCount(1)
                                .build())
                .commit();
        List<IcebergSourceSplit> after = plan(table);
        assertThat(after.stream().flatMap(s -> s.task().files().stream()))
                .anyMatch(task -> task.spec().specId() == 1);
        for (IcebergSourceSplit split : after) {
            assertSameSplit(loading.deserialize(2, loading.serialize(split)), split);
        }
    }

    private static List<IcebergSourceSplit> plan(Table table) throws IOException {
        List<IcebergSourceSplit> splits = new ArrayList<>();
        try (CloseableIterable<CombinedScanTask> tasks = table.newScan().planTasks()) {
            for (CombinedScanTask task : tasks) {
                splits.add(IcebergSourceSplit.fromCombinedScanTask(task));
            }
        }
        return splits;
    }

    static void assertSameSplit(IcebergSourceSplit actual, IcebergSourceSplit expected) {
        assertThat(actual.splitId()).isEqualTo(expected.splitId());
        assertThat(actual.fileOffset()).isEqualTo(expected.fileOffset());
        assertThat(actual.recordOffset()).isEqualTo(expected.recordOffset());
        List<FileScanTask> a = new ArrayList<>(actual.task().files());
        List<FileScanTask> e = new ArrayList<>(expected.task().files());
        assertThat(a).hasSameSizeAs(e);
        for (int i = 0; i < a.size(); i++) {
            FileScanTask x = a.get(i);
            FileScanTask y = e.get(i);
            assertThat(x.file().location()).isEqualTo(y.file().location());
            assertThat(x.file().format()).isEqualTo(y.file().format());
            assertThat(x.file().recordCount()).isEqualTo(y.file().recordCount());
            assertThat(x.file().fileSizeInBytes()).isEqualTo(y.file().fileSizeInBytes());
            assertThat(x.file().specId()).isEqualTo(y.file().specId());
            assertThat(x.file().partition().size()).isEqualTo(y.file().partition().size());
            for (int p = 0; p < x.file().partition().size(); p++) {
                assertThat(x.file().partition().get(p, Object.class))
                        .isEqualTo(y.file().partition().get(p, Object.class));
            }
            assertThat(x.file().splitOffsets()).isEqualTo(y.file().splitOffsets());
            assertThat(x.file().dataSequenceNumber()).isEqualTo(y.file().dataSequenceNumber());
            assertThat(x.file().fileSequenceNumber()).isEqualTo(y.file().fileSequenceNumber());
            assertThat(x.start()).isEqualTo(y.start());
            assertThat(x.length()).isEqualTo(y.length());
            assertThat(x.residual().toString()).isEqualTo(y.residual().toString());
            assertThat(x.spec().specId()).isEqualTo(y.spec().specId());
            assertThat(x.schema().asStruct()).isEqualTo(y.schema().asStruct());
            assertThat(x.deletes()).hasSameSizeAs(y.deletes());
            for (int d = 0; d < x.deletes().size(); d++) {
                DeleteFile xd = x.deletes().get(d);
                DeleteFile yd = y.deletes().get(d);
                assertThat(xd.location()).isEqualTo(yd.location());
                assertThat(xd.content()).isEqualTo(yd.content());
                assertThat(xd.dataSequenceNumber()).isEqualTo(yd.dataSequenceNumber());
            }
        }
        assertThat(new BaseCombinedScanTask(a).files()).hasSize(e.size());
    }
}
