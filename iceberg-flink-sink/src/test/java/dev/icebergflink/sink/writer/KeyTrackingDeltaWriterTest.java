package dev.icebergflink.sink.writer;

import static dev.icebergflink.sink.writer.TestingTaskWrites.SCHEMA;
import static dev.icebergflink.sink.writer.TestingTaskWrites.byPart;
import static dev.icebergflink.sink.writer.TestingTaskWrites.commit;
import static dev.icebergflink.sink.writer.TestingTaskWrites.row;
import static dev.icebergflink.sink.writer.TestingTaskWrites.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.TestingTableRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Delta writers with key tracking ({@link RowDataTaskWriterFactory#withKeyTracking}) take several
 * changes of one key within a checkpoint: only the last change survives the commit, the rows it
 * replaced are deleted by position (format v2 position delete files, format v3 deletion vectors),
 * across rolled files and partitions, with keys in memory or spilled.
 */
class KeyTrackingDeltaWriterTest {

    @TempDir Path dir;

    private Table table(PartitionSpec spec, int formatVersion, Map<String, String> properties) {
        Map<String, String> all = new java.util.HashMap<>(properties);
        all.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
        return new HadoopTables(new Configuration())
                .create(SCHEMA, spec, all, dir.resolve("t" + System.nanoTime()).toString());
    }

    private RowDataTaskWriterFactory tracking(
            Table table, FileFormat format, WriterMode mode, long target, long memory) {
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                                table,
                                FlinkSchemaUtil.convert(table.schema()),
                                format,
                                target,
                                Map.of(),
                                mode,
                                List.of(1))
                        .withKeyTracking(memory, dir.resolve("spill").toString());
        factory.initialize(0, 0);
        return factory;
    }

    private static RowData insert(long id, String data) {
        return row(RowKind.INSERT, id, data, "x");
    }

    @ParameterizedTest(name = "{0} v{1}")
    @CsvSource({"PARQUET, 2", "ORC, 2", "AVRO, 2", "PARQUET, 3"})
    void onlyTheLastChangeOfAKeyInACheckpointSurvives(FileFormat format, int formatVersion)
            throws IOException {
        Table table = table(PartitionSpec.unpartitioned(), formatVersion, Map.of());
        RowDataTaskWriterFactory factory =
                tracking(table, format, WriterMode.UPSERT, 1L << 30, 1L << 20);
        commit(table, write(factory, List.of(insert(1, "a"), insert(2, "b"), insert(3, "c"))));

        WriteResult result =
                write(
                        factory,
                        List.of(
                                insert(1, "a1"),
                                insert(1, "a2"),
                                row(RowKind.DELETE, 2, "b", "x"),
                                insert(2, "b2"),
                                insert(4, "d1"),
                                row(RowKind.DELETE, 4, "d1", "x"),
                                insert(5, "e1"),
                                row(RowKind.UPDATE_BEFORE, 5, "e1", "x"),
                                insert(5, "e2"),
                                insert(5, "e3")));
        commit(table, result);

        assertThat(TestingTableRows.of(table))
                .containsExactly("1:a2:x", "2:b2:x", "3:c:x", "5:e3:x");
        List<DeleteFile> positionDeletes =
                Arrays.stream(result.deleteFiles())
                        .filter(file -> file.content() == FileContent.POSITION_DELETES)
                        .toList();
        // a1, d1, e1 and e2 were written and replaced within the checkpoint
        assertThat(positionDeletes.stream().mapToLong(ContentFile::recordCount).sum()).isEqualTo(4);
        assertThat(positionDeletes)
                .allSatisfy(
                        file ->
                                assertThat(file.format())
                                        .isEqualTo(
                                                formatVersion >= 3 ? FileFormat.PUFFIN : format));
        assertThat(result.referencedDataFiles())
                .containsExactlyInAnyOrderElementsOf(
                        Arrays.stream(result.dataFiles()).map(DataFile::location).toList());
        assertThat(spillFiles()).isEmpty();
    }

    @ParameterizedTest(name = "memory={0}")
    @CsvSource({"1048576", "1024"})
    void supersededRowsAreFoundAcrossRolledFilesAndPartitions(long memory) throws IOException {
        Table table = table(byPart(), 2, Map.of(TableProperties.DELETE_GRANULARITY, "file"));
        // a tiny target size: files roll every 1,000 rows, Iceberg's size check interval
        RowDataTaskWriterFactory factory =
                tracking(table, FileFormat.PARQUET, WriterMode.UPSERT, 1, memory);
        List<RowData> changes = new ArrayList<>();
        TreeMap<Long, String> expected = new TreeMap<>();
        for (int i = 0; i < 6_000; i++) {
            long id = (i * 7L) % 1_700;
            String part = id % 2 == 0 ? "even" : "odd";
            changes.add(row(RowKind.INSERT, id, "v" + i, part));
            expected.put(id, id + ":v" + i + ":" + part);
        }
        WriteResult result = write(factory, changes);
        commit(table, result);

        assertThat(TestingTableRows.of(table))
                .containsExactlyInAnyOrderElementsOf(expected.values());
        assertThat(result.dataFiles()).hasSizeGreaterThan(4);
        DeleteFile[] positionDeletes =
                Arrays.stream(result.deleteFiles())
                        .filter(file -> file.content() == FileContent.POSITION_DELETES)
                        .toArray(DeleteFile[]::new);
        assertThat(Arrays.stream(positionDeletes).mapToLong(ContentFile::recordCount).sum())
                .isEqualTo(6_000 - 1_700);
        // file granularity: one delete file per data file that lost rows
        assertThat(positionDeletes).hasSize(result.referencedDataFiles().length);
        assertThat(positionDeletes.length).isGreaterThan(2);
        assertThat(spillFiles()).isEmpty();
    }

    @ParameterizedTest(name = "v{0}")
    @CsvSource({"2", "3"})
    void distinctKeysWriteNoPositionDeleteFile(int formatVersion) throws IOException {
        Table table = table(PartitionSpec.unpartitioned(), formatVersion, Map.of());
        RowDataTaskWriterFactory factory =
                tracking(table, FileFormat.PARQUET, WriterMode.UPSERT, 1L << 30, 1L << 20);
        WriteResult result = write(factory, List.of(insert(1, "a"), insert(2, "b")));
        assertThat(result.deleteFiles())
                .extracting(DeleteFile::content)
                .containsOnly(FileContent.EQUALITY_DELETES);
        assertThat(result.referencedDataFiles()).isEmpty();
        try (Stream<Path> files = Files.walk(Path.of(table.location()))) {
            assertThat(files.map(Path::toString)).noneMatch(name -> name.endsWith(".puffin"));
        }
    }

    @Test
    void aChangelogKeepsTheLastVersionOfEveryKey() throws IOException {
        Table table = table(PartitionSpec.unpartitioned(), 2, Map.of());
        RowDataTaskWriterFactory factory =
                tracking(table, FileFormat.PARQUET, WriterMode.CHANGELOG, 1L << 30, 1L << 20);
        commit(table, write(factory, List.of(insert(1, "a"), insert(2, "b"))));

        WriteResult result =
                write(
                        factory,
                        List.of(
                                row(RowKind.UPDATE_BEFORE, 1, "a", "x"),
                                row(RowKind.UPDATE_AFTER, 1, "a1", "x"),
                                row(RowKind.UPDATE_BEFORE, 1, "a1", "x"),
                                row(RowKind.UPDATE_AFTER, 1, "a2", "x"),
                                insert(3, "c"),
                                row(RowKind.DELETE, 3, "c", "x"),
                                row(RowKind.DELETE, 2, "b", "x"),
                                insert(2, "b1")));
        commit(table, result);

        assertThat(TestingTableRows.of(table)).containsExactly("1:a2:x", "2:b1:x");
    }

    @Test
    void anAbortedCheckpointLeavesNoSpillFiles() throws IOException {
        Table table = table(PartitionSpec.unpartitioned(), 2, Map.of());
        RowDataTaskWriterFactory factory =
                tracking(table, FileFormat.PARQUET, WriterMode.UPSERT, 1L << 30, 1024);
        TaskWriter<RowData> writer = factory.create();
        for (int i = 0; i < 2_000; i++) {
            writer.write(insert(i % 300, "v" + i));
        }
        assertThat(spillFiles()).isNotEmpty();
        writer.abort();
        assertThat(spillFiles()).isEmpty();
    }

    @Test
    void keyTrackingNeedsADeltaWriterWithAKey() {
        Table table = table(PartitionSpec.unpartitioned(), 2, Map.of());
        RowDataTaskWriterFactory append =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(table.schema()),
                        FileFormat.PARQUET,
                        1L << 30,
                        Map.of(),
                        WriterMode.APPEND,
                        List.of());
        assertThatThrownBy(() -> append.withKeyTracking(1L << 20, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("equality fields");
    }

    private List<Path> spillFiles() throws IOException {
        Path spill = dir.resolve("spill");
        if (!Files.exists(spill)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(spill)) {
            return files.toList();
        }
    }
}
