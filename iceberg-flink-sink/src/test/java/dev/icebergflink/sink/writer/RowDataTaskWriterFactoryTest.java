package dev.icebergflink.sink.writer;

import static dev.icebergflink.sink.writer.TestingTaskWrites.SCHEMA;
import static dev.icebergflink.sink.writer.TestingTaskWrites.byPart;
import static dev.icebergflink.sink.writer.TestingTaskWrites.commit;
import static dev.icebergflink.sink.writer.TestingTaskWrites.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.TestingTableRows;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
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
import org.junit.jupiter.params.provider.EnumSource;

class RowDataTaskWriterFactoryTest {

    @TempDir Path dir;

    private Table createTable(PartitionSpec spec, int formatVersion) {
        return new HadoopTables(new Configuration())
                .create(
                        SCHEMA,
                        spec,
                        Map.of(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion)),
                        new File(dir.toFile(), "t" + System.nanoTime()).toString());
    }

    private static RowData insert(long id, String data, String part) {
        return row(RowKind.INSERT, id, data, part);
    }

    private static WriteResult write(RowDataTaskWriterFactory factory, RowData... rows)
            throws IOException {
        return TestingTaskWrites.write(factory, Arrays.asList(rows));
    }

    private static RowDataTaskWriterFactory factory(
            Table table, FileFormat format, WriterMode mode, List<Integer> keyIds, long target) {
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(table.schema()),
                        format,
                        target,
                        Map.of(),
                        mode,
                        keyIds);
        factory.initialize(3, 1);
        return factory;
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void appendsUnpartitionedRowsInTheRequestedFormat(FileFormat format) throws IOException {
        Table table = createTable(PartitionSpec.unpartitioned(), 2);
        WriteResult result =
                write(
                        factory(table, format, WriterMode.APPEND, List.of(), 1 << 20),
                        insert(1, "a", "x"),
                        row(RowKind.UPDATE_AFTER, 2, "b", "y"));
        assertThat(result.dataFiles()).hasSize(1);
        assertThat(result.deleteFiles()).isEmpty();
        DataFile file = result.dataFiles()[0];
        assertThat(file.format()).isEqualTo(format);
        assertThat(file.location()).contains("00003-1-").endsWith(format.addExtension(""));
        assertThat(file.recordCount()).isEqualTo(2);
        commit(table, result);
        assertThat(TestingTableRows.of(table)).containsExactly("1:a:x", "2:b:y");
    }

    @Test
    void rollsFilesAtTheTargetSize() throws IOException {
        Table table = createTable(PartitionSpec.unpartitioned(), 2);
        RowDataTaskWriterFactory factory =
                factory(table, FileFormat.AVRO, WriterMode.APPEND, List.of(), 1);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            rows.add(insert(i, "value-" + i, "p"));
        }
        WriteResult result = write(factory, rows.toArray(new RowData[0]));
        // Iceberg checks the size every 1000 rows: 2500 rows and a tiny target give 3 files
        assertThat(result.dataFiles()).hasSize(3);
        commit(table, result);
        assertThat(TestingTableRows.of(table))
                .hasSize(2500)
                .contains("0:value-0:p", "2499:value-2499:p");
    }

    @Test
    void fansOutUnsortedRowsToOneFilePerPartition() throws IOException {
        Table table = createTable(byPart(), 2);
        WriteResult result =
                write(
                        factory(table, FileFormat.PARQUET, WriterMode.APPEND, List.of(), 1 << 20),
                        insert(1, "a", "x"),
                        insert(2, "b", "y"),
                        insert(3, "c", "x"),
                        insert(4, "d", "z"),
                        insert(5, "e", "y"));
        assertThat(result.dataFiles()).hasSize(3);
        for (DataFile file : result.dataFiles()) {
            String part = file.partition().get(0, String.class);
            assertThat(file.location()).contains("part=" + part);
            assertThat(file.recordCount()).isEqualTo(part.equals("z") ? 1 : 2);
        }
        commit(table, result);
        assertThat(TestingTableRows.of(table))
                .containsExactly("1:a:x", "2:b:y", "3:c:x", "4:d:z", "5:e:y");
    }

    @Test
    void appendRejectsDeletesNamingTheRowKind() throws IOException {
        Table table = createTable(PartitionSpec.unpartitioned(), 1);
        TaskWriter<RowData> writer =
                factory(table, FileFormat.PARQUET, WriterMode.APPEND, List.of(), 1 << 20).create();
        writer.write(insert(1, "a", "x"));
        assertThatThrownBy(() -> writer.write(row(RowKind.DELETE, 1, "a", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DELETE")
                .hasMessageContaining("format v1");
        assertThatThrownBy(() -> writer.write(row(RowKind.UPDATE_BEFORE, 1, "a", "x")))
                .hasMessageContaining("UPDATE_BEFORE");
        writer.abort();
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void upsertReplacesAndDeletesByKeyInThePartitionOfTheRow(FileFormat format) throws IOException {
        Table table = createTable(byPart(), 2);
        // partition source column must be in the key for upsert: key (id, part)
        List<Integer> key = List.of(1, 3);
        RowDataTaskWriterFactory factory = factory(table, format, WriterMode.UPSERT, key, 1 << 20);
        commit(
                table,
                write(factory, insert(1, "a", "x"), insert(2, "b", "y"), insert(3, "c", "x")));
        assertThat(TestingTableRows.of(table)).containsExactly("1:a:x", "2:b:y", "3:c:x");

        WriteResult second =
                write(
                        factory,
                        row(RowKind.UPDATE_BEFORE, 1, "a", "x"),
                        row(RowKind.UPDATE_AFTER, 1, "a2", "x"),
                        row(RowKind.DELETE, 2, null, "y"),
                        insert(3, "c2", "x"),
                        insert(4, "d", "z"));
        assertThat(second.deleteFiles()).isNotEmpty();
        for (DeleteFile delete : second.deleteFiles()) {
            assertThat(delete.content()).isEqualTo(FileContent.EQUALITY_DELETES);
            assertThat(delete.equalityFieldIds()).containsExactly(1, 3);
            assertThat(delete.format()).isEqualTo(format);
        }
        commit(table, second);
        assertThat(TestingTableRows.of(table)).containsExactly("1:a2:x", "3:c2:x", "4:d:z");
    }

    @Test
    void changelogWithKeyDeletesByKeyAndInsertsWithoutDeletes() throws IOException {
        Table table = createTable(PartitionSpec.unpartitioned(), 2);
        RowDataTaskWriterFactory factory =
                factory(table, FileFormat.PARQUET, WriterMode.CHANGELOG, List.of(1), 1 << 20);
        WriteResult first = write(factory, insert(1, "a", "x"), insert(2, "b", "y"));
        assertThat(first.deleteFiles()).isEmpty();
        commit(table, first);

        WriteResult second =
                write(
                        factory,
                        row(RowKind.UPDATE_BEFORE, 1, "a", "x"),
                        row(RowKind.UPDATE_AFTER, 1, "a2", "x"),
                        row(RowKind.DELETE, 2, "whatever", "y"));
        assertThat(second.deleteFiles()).hasSize(1);
        assertThat(second.deleteFiles()[0].recordCount()).isEqualTo(2);
        commit(table, second);
        assertThat(TestingTableRows.of(table)).containsExactly("1:a2:x");
    }

    @Test
    void changelogWithoutKeyDeletesWholeRows() throws IOException {
        Table table = createTable(PartitionSpec.unpartitioned(), 2);
        RowDataTaskWriterFactory factory =
                factory(table, FileFormat.ORC, WriterMode.CHANGELOG, List.of(), 1 << 20);
        commit(table, write(factory, insert(1, "a", "x"), insert(1, "b", "x")));
        WriteResult second = write(factory, row(RowKind.DELETE, 1, "a", "x"));
        assertThat(second.deleteFiles()[0].equalityFieldIds()).containsExactly(1, 2, 3);
        commit(table, second);
        assertThat(TestingTableRows.of(table)).containsExactly("1:b:x");
    }

    @Test
    void abortRemovesTheFilesItWrote() throws IOException {
        Table table = createTable(byPart(), 2);
        RowDataTaskWriterFactory factory =
                factory(table, FileFormat.PARQUET, WriterMode.UPSERT, List.of(1, 3), 1 << 20);
        TaskWriter<RowData> writer = factory.create();
        writer.write(insert(1, "a", "x"));
        writer.write(insert(2, "b", "y"));
        writer.abort();
        try (var files = java.nio.file.Files.walk(Path.of(table.location(), "data"))) {
            assertThat(
                            files.filter(java.nio.file.Files::isRegularFile)
                                    .filter(p -> !p.getFileName().toString().startsWith(".")))
                    .isEmpty();
        } catch (java.nio.file.NoSuchFileException e) {
            // nothing was ever created: fine
        }
    }
}
