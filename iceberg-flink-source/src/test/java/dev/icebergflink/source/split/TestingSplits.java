package dev.icebergflink.source.split;

import dev.icebergflink.source.SourceTestTables;
import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import dev.icebergflink.tasks.codec.RestoredFileScanTask;
import dev.icebergflink.tasks.codec.SequencedFiles;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expressions;

/**
 * Fixed splits for serializer tests, and the golden-file helper: with {@code
 * -Dgolden.regenerate=true} a golden test writes its file under {@code src/test/resources/golden}
 * instead of comparing (run once when a new serializer version is introduced, then commit it).
 */
public final class TestingSplits {

    public static final Schema SCHEMA = SourceTestTables.SCHEMA;

    /** The commit time of the golden changelog split's snapshot: 2026-12-01T10:00:00Z. */
    public static final long COMMITTED_AT = 1_796_119_200_000L;

    public static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("data").build();
    public static final TableMetadataLookup METADATA =
            TableMetadataLookup.of(Map.of(0, SCHEMA), Map.of(0, SPEC));

    private TestingSplits() {}

    /** A split of two file ranges, one with a position delete file, at position (1, 7). */
    public static IcebergSourceSplit split(String name) {
        DataFile first =
                DataFiles.builder(SPEC)
                        .withPath("/warehouse/t/data/" + name + "-a.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withPartitionPath("data=a")
                        .withFileSizeInBytes(1024)
                        .withRecordCount(10)
                        .build();
        DataFile second =
                DataFiles.builder(SPEC)
                        .withPath("/warehouse/t/data/" + name + "-b.orc")
                        .withFormat(FileFormat.ORC)
                        .withPartitionPath("data=b")
                        .withFileSizeInBytes(4096)
                        .withRecordCount(40)
                        .withSplitOffsets(List.of(4L, 2048L))
                        .build();
        DeleteFile deletes =
                FileMetadata.deleteFileBuilder(SPEC)
                        .ofPositionDeletes()
                        .withPath("/warehouse/t/data/" + name + "-deletes.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withPartitionPath("data=b")
                        .withFileSizeInBytes(512)
                        .withRecordCount(3)
                        .build();
        var task1 =
                new RestoredFileScanTask(
                        SequencedFiles.dataFile(first, 3L, 3L),
                        List.of(),
                        SCHEMA,
                        SPEC,
                        Expressions.greaterThan("id", 5L),
                        0,
                        1024);
        var task2 =
                new RestoredFileScanTask(
                        SequencedFiles.dataFile(second, 4L, 5L),
                        List.of(SequencedFiles.deleteFile(deletes, 6L, 6L)),
                        SCHEMA,
                        SPEC,
                        Expressions.alwaysTrue(),
                        2048,
                        2048);
        return IcebergSourceSplit.fromCombinedScanTask(
                        new BaseCombinedScanTask(List.of(task1, task2)))
                .withPosition(1, 7L);
    }

    /**
     * A changelog split of the changes of snapshot 42: the rows of {@link #split}'s first file that
     * the snapshot's equality deletes remove, and its second file's rows as added rows; at position
     * (1, 2).
     */
    public static IcebergSourceSplit changeSplit(String name) {
        List<FileScanTask> files = new ArrayList<>(split(name).task().files());
        DeleteFile equality =
                FileMetadata.deleteFileBuilder(SPEC)
                        .ofEqualityDeletes(1)
                        .withPath("/warehouse/t/data/" + name + "-eq.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withPartitionPath("data=a")
                        .withFileSizeInBytes(256)
                        .withRecordCount(2)
                        .build();
        var removed =
                new ChangeFileScanTask(
                        files.get(0),
                        ChangeType.DELETED_ROWS,
                        42L,
                        COMMITTED_AT,
                        List.of(SequencedFiles.deleteFile(equality, 7L, 7L)));
        var added =
                new ChangeFileScanTask(
                        files.get(1), ChangeType.ADDED_ROWS, 42L, COMMITTED_AT, List.of());
        return IcebergSourceSplit.fromCombinedScanTask(
                        new BaseCombinedScanTask(List.of(removed, added)))
                .withPosition(1, 2L);
    }

    /**
     * Compares with (or regenerates) the golden file {@code golden/<name>}; {@code actual} is
     * {@code null} for files of older versions that are only read, never written again.
     */
    public static byte[] golden(String name, byte[] actual) throws IOException {
        Path path = Path.of("src/test/resources/golden", name);
        if (actual != null && Boolean.getBoolean("golden.regenerate")) {
            Files.createDirectories(path.getParent());
            Files.write(path, actual);
        }
        return Files.readAllBytes(path);
    }
}
