package dev.icebergflink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.FlinkWriteConf;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row group sizes that bound what an upsert writer holds in memory reach the files: the data
 * files of an upsert writer are cut at {@code upsert-row-group-size-bytes}, its equality delete
 * files at {@code delete-row-group-size-bytes}, as the files' footers show; an append writer keeps
 * the table's row group size.
 */
class BoundedRowGroupsTest {

    private static final int ROWS = 60_000;
    private static final long DATA_ROW_GROUP = 256 << 10;
    private static final long DELETE_ROW_GROUP = 64 << 10;

    @TempDir Path dir;

    @Test
    void upsertWritersCutDataAndDeleteFilesIntoTheirOwnRowGroups() throws IOException {
        Table table = table();
        FlinkWriteConf conf =
                FlinkWriteConf.resolve(
                        Map.of(
                                "upsert-row-group-size-bytes", Long.toString(DATA_ROW_GROUP),
                                "delete-row-group-size-bytes", Long.toString(DELETE_ROW_GROUP)),
                        null,
                        table.properties());

        WriteResult upsert = write(table, conf.writeProperties(false), WriterMode.UPSERT);

        assertThat(upsert.dataFiles()).hasSize(1);
        assertThat(upsert.deleteFiles()).hasSize(1);
        assertThat(records(List.of(upsert.dataFiles()))).isEqualTo(ROWS);
        assertThat(records(List.of(upsert.deleteFiles()))).isEqualTo(ROWS);
        // 60,000 rows of ~100 bytes: about 6 MB of data, 480 KB of keys
        assertRowGroups(upsert.dataFiles()[0], DATA_ROW_GROUP, 10);
        assertRowGroups(upsert.deleteFiles()[0], DELETE_ROW_GROUP, 4);
    }

    @Test
    void appendWritersKeepTheTablesRowGroupSize() throws IOException {
        Table table = table();
        FlinkWriteConf conf =
                FlinkWriteConf.resolve(
                        Map.of("upsert-row-group-size-bytes", Long.toString(DATA_ROW_GROUP)),
                        null,
                        table.properties());

        WriteResult append = write(table, conf.writeProperties(true), WriterMode.APPEND);

        assertThat(append.dataFiles()).hasSize(1);
        // the table's default of 128 MB holds all 6 MB in one row group
        assertThat(rowGroups(append.dataFiles()[0])).hasSize(1);
    }

    private Table table() {
        Schema schema =
                new Schema(
                        List.of(
                                Types.NestedField.required(1, "id", Types.LongType.get()),
                                Types.NestedField.optional(2, "data", Types.StringType.get())),
                        Set.of(1));
        return new HadoopTables(new Configuration())
                .create(
                        schema,
                        PartitionSpec.unpartitioned(),
                        Map.of(TableProperties.FORMAT_VERSION, "2"),
                        dir.resolve("t").toString());
    }

    private static WriteResult write(Table table, Map<String, String> properties, WriterMode mode)
            throws IOException {
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(table.schema()),
                        FileFormat.PARQUET,
                        1L << 30,
                        properties,
                        mode,
                        mode == WriterMode.UPSERT ? List.of(1) : List.of());
        factory.initialize(0, 0);
        TaskWriter<RowData> writer = factory.create();
        for (int i = 0; i < ROWS; i++) {
            // scattered keys and values, so that neither compresses to nothing
            long id = mix(i);
            GenericRowData row =
                    GenericRowData.of(
                            id,
                            StringData.fromString(
                                    Long.toHexString(mix(id)).repeat(6) + Long.toString(id, 36)));
            row.setRowKind(RowKind.INSERT);
            writer.write(row);
        }
        return writer.complete();
    }

    private static long mix(long value) {
        long z = value * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }

    /**
     * The file has at least {@code minimum} row groups, and none is much larger than the bound
     * (Iceberg's Parquet writer checks the size every 100 to 10,000 rows, so a row group may pass
     * the bound by the rows since the last check).
     */
    private static void assertRowGroups(ContentFile<?> file, long bound, int minimum)
            throws IOException {
        List<BlockMetaData> groups = rowGroups(file);
        assertThat(groups)
                .as("row groups of %s", file.location())
                .hasSizeGreaterThanOrEqualTo(minimum);
        long rows = 0;
        for (BlockMetaData group : groups) {
            assertThat(group.getCompressedSize())
                    .as("compressed size of a row group of %s", file.location())
                    .isLessThanOrEqualTo(bound + bound / 2);
            rows += group.getRowCount();
        }
        assertThat(rows).isEqualTo(file.recordCount());
    }

    private static List<BlockMetaData> rowGroups(ContentFile<?> file) throws IOException {
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file.location()),
                                new Configuration()))) {
            return reader.getFooter().getBlocks();
        }
    }

    private static long records(List<? extends ContentFile<?>> files) {
        return files.stream().mapToLong(ContentFile::recordCount).sum();
    }
}
