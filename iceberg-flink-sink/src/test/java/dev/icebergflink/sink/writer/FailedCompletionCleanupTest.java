package dev.icebergflink.sink.writer;

import static dev.icebergflink.sink.writer.TestingTaskWrites.SCHEMA;
import static dev.icebergflink.sink.writer.TestingTaskWrites.byPart;
import static dev.icebergflink.sink.writer.TestingTaskWrites.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.TaskWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A task writer whose completion fails (a file cannot be closed, the deletes cannot be written)
 * deletes every file it wrote, finished or not, before the failure propagates: those files will
 * never be committed. The failure is real: Iceberg's Hadoop file IO whose N-th file fails to close.
 */
class FailedCompletionCleanupTest {

    @TempDir Path dir;

    @AfterEach
    void disarm() {
        TestingFailingFileIO.disarm();
    }

    private Table table(PartitionSpec spec, int formatVersion) {
        HadoopCatalog catalog = new HadoopCatalog();
        catalog.setConf(new Configuration());
        catalog.initialize(
                "failing",
                Map.of(
                        CatalogProperties.WAREHOUSE_LOCATION,
                        dir.resolve("warehouse").toUri().toString(),
                        CatalogProperties.FILE_IO_IMPL,
                        TestingFailingFileIO.class.getName()));
        return catalog.createTable(
                TableIdentifier.of("db", "t"),
                SCHEMA,
                spec,
                Map.of(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion)));
    }

    private static RowDataTaskWriterFactory factory(
            Table table, WriterMode mode, List<Integer> keys) {
        return new RowDataTaskWriterFactory(
                table,
                FlinkSchemaUtil.convert(table.schema()),
                FileFormat.PARQUET,
                1L << 30,
                Map.of(),
                mode,
                keys);
    }

    @Test
    void filesOfEveryPartitionAreDeletedWhenClosingOneFails() throws IOException {
        Table table = table(byPart(), 2);
        RowDataTaskWriterFactory factory = factory(table, WriterMode.APPEND, List.of());
        factory.initialize(0, 0);
        TaskWriter<RowData> writer = factory.create();
        for (String part : List.of("a", "b", "c")) {
            for (long id = 0; id < 10; id++) {
                writer.write(row(RowKind.INSERT, id, "v" + id, part));
            }
        }
        // the second of the three partitions' files fails to close; the other two close
        TestingFailingFileIO.failClosingDataFile(2);

        assertThatThrownBy(writer::complete).hasStackTraceContaining(TestingFailingFileIO.FAILURE);

        assertThat(dataDirectoryFiles(table)).isEmpty();
        // nothing was half-done: aborting afterwards is a no-op
        writer.abort();
    }

    @ParameterizedTest(name = "format v{0}")
    @ValueSource(ints = {2, 3})
    void dataAndEqualityDeleteFilesAreDeletedWhenWritingThePositionDeletesFails(int formatVersion)
            throws IOException {
        Table table = table(PartitionSpec.unpartitioned(), formatVersion);
        RowDataTaskWriterFactory factory =
                factory(table, WriterMode.UPSERT, List.of(1))
                        .withKeyTracking(1L << 20, dir.resolve("spill").toString());
        factory.initialize(0, 0);
        TaskWriter<RowData> writer = factory.create();
        writer.write(row(RowKind.INSERT, 1, "first", "x"));
        writer.write(row(RowKind.INSERT, 2, "other", "x"));
        writer.write(row(RowKind.INSERT, 1, "second", "x"));
        // closed in order: the data file, the equality deletes, then the position deletes of the
        // superseded row (a deletion vector in v3), which fail
        TestingFailingFileIO.failClosingDataFile(3);

        assertThatThrownBy(writer::complete).hasStackTraceContaining(TestingFailingFileIO.FAILURE);

        assertThat(dataDirectoryFiles(table)).isEmpty();
        try (Stream<Path> spilled = Files.walk(dir.resolve("spill"))) {
            assertThat(spilled.filter(Files::isRegularFile)).isEmpty();
        } catch (java.nio.file.NoSuchFileException nothingSpilled) {
            // keys never spilled: nothing to check
        }
    }

    /** Every data and delete file under the table's data directory (Hadoop's .crc files too). */
    private static List<String> dataDirectoryFiles(Table table) throws IOException {
        Path data = Path.of(java.net.URI.create(table.location() + "/data"));
        if (!Files.exists(data)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(Files::isRegularFile).map(Path::toString).sorted().toList();
        }
    }
}
