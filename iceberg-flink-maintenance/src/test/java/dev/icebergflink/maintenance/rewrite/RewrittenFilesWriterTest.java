package dev.icebergflink.maintenance.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.RowDataFileWriterFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RewrittenFilesWriterTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.required(2, "category", Types.StringType.get()));

    @TempDir Path dir;

    private Table table;
    private RowType rowType;

    @BeforeEach
    void createTable() {
        table =
                new HadoopTables(new Configuration())
                        .create(
                                SCHEMA,
                                PartitionSpec.builderFor(SCHEMA).identity("category").build(),
                                Map.of(),
                                dir.resolve("t").toString());
        rowType = FlinkSchemaUtil.convert(SCHEMA);
    }

    private RewrittenFilesWriter writer() {
        return new RewrittenFilesWriter(
                table,
                rowType,
                RowDataFileWriterFactory.builderFor(table)
                        .dataFileFormat(FileFormat.PARQUET)
                        .build(),
                OutputFileFactory.builderFor(table, 0, 0).format(FileFormat.PARQUET).build(),
                1024 * 1024);
    }

    private static RowData row(long id, String category) {
        return GenericRowData.of(id, StringData.fromString(category));
    }

    @Test
    void rowsOfInterleavedPartitionsGoToOneFilePerPartition() throws IOException {
        RewrittenFilesWriter writer = writer();
        for (long id = 0; id < 6; id++) {
            writer.write(row(id, id % 2 == 0 ? "even" : "odd"));
        }

        List<DataFile> written = writer.complete();

        assertThat(written)
                .extracting(file -> file.partition().get(0, String.class), DataFile::recordCount)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("even", 3L),
                        org.assertj.core.groups.Tuple.tuple("odd", 3L));
        var append = table.newAppend();
        written.forEach(append::appendFile);
        append.commit();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            assertThat(records)
                    .extracting(r -> r.getField("id") + "/" + r.getField("category"))
                    .containsExactlyInAnyOrder(
                            "0/even", "1/odd", "2/even", "3/odd", "4/even", "5/odd");
        }
    }

    @Test
    void abortDeletesEveryOpenedFile() throws IOException {
        RewrittenFilesWriter writer = writer();
        writer.write(row(1, "a"));
        writer.write(row(2, "b"));
        IllegalStateException failure = new IllegalStateException("reading failed");

        writer.abort(failure);

        assertThat(failure.getSuppressed()).isEmpty();
        assertThat(dataFilesOnDisk()).isEmpty();
    }

    private List<Path> dataFilesOnDisk() throws IOException {
        Path data = dir.resolve("t").resolve("data");
        if (!Files.exists(data)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(Files::isRegularFile)
                    .filter(path -> path.toString().endsWith(".parquet"))
                    .toList();
        }
    }
}
