package dev.icebergflink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.TestingTableRows;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How the task writers route rows to the file of their partition: one file per partition whatever
 * the order of the rows, also when the rows' memory is reused for the next row, and one shared
 * partition instance per partition.
 */
class PartitionedRowWriterTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "part", Types.StringType.get()),
                    Types.NestedField.optional(4, "bucketed", Types.LongType.get()));
    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    @TempDir Path dir;

    private Table createTable(PartitionSpec spec) {
        return new HadoopTables(new Configuration())
                .create(
                        SCHEMA,
                        spec,
                        Map.of(TableProperties.FORMAT_VERSION, "2"),
                        new File(dir.toFile(), "t" + System.nanoTime()).toString());
    }

    private static TaskWriter<RowData> writer(Table table, WriterMode mode) {
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                        table, ROW_TYPE, FileFormat.PARQUET, 1L << 30, Map.of(), mode, List.of());
        factory.initialize(0, 0);
        return factory.create();
    }

    /** Rewrites {@code row}'s memory in place with the next row's values (object reuse). */
    private static void fill(BinaryRowWriter writer, long id, String part) {
        writer.reset();
        writer.writeLong(0, id);
        writer.writeString(1, StringData.fromString("value-of-row-" + id));
        writer.writeString(2, StringData.fromString(part));
        writer.writeLong(3, id);
        writer.complete();
    }

    private static List<String> contents(Table table, WriteResult result) {
        AppendFiles append = table.newAppend();
        Arrays.stream(result.dataFiles()).forEach(append::appendFile);
        append.commit();
        return TestingTableRows.of(table);
    }

    @ParameterizedTest
    @EnumSource(
            value = WriterMode.class,
            names = {"APPEND", "CHANGELOG"})
    void interleavedRowsOfOneReusedRowObjectGoToOneFilePerPartition(WriterMode mode)
            throws IOException {
        Table table =
                createTable(
                        PartitionSpec.builderFor(SCHEMA)
                                .identity("part")
                                .bucket("bucketed", 2)
                                .build());
        TaskWriter<RowData> writer = writer(table, mode);
        BinaryRowData reused = new BinaryRowData(SCHEMA.columns().size());
        BinaryRowWriter rowWriter = new BinaryRowWriter(reused);
        String[] parts = {"north-partition", "south-partition", "east"};
        List<String> expected = new ArrayList<>();
        for (long id = 0; id < 60; id++) {
            String part = parts[(int) (id * 7 % 3)];
            fill(rowWriter, id, part);
            writer.write(reused);
            expected.add(id + ":value-of-row-" + id + ":" + part);
        }
        WriteResult result = writer.complete();

        // three values of part times two buckets
        assertThat(result.dataFiles()).hasSize(6);
        Map<String, Long> rowsPerPartition = new HashMap<>();
        for (DataFile file : result.dataFiles()) {
            String partition =
                    file.partition().get(0, String.class)
                            + "/"
                            + file.partition().get(1, Integer.class);
            assertThat(rowsPerPartition.put(partition, file.recordCount()))
                    .as("one file per partition")
                    .isNull();
        }
        assertThat(rowsPerPartition.values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(60);
        expected.sort(null);
        assertThat(contents(table, result)).containsExactlyElementsOf(expected);
    }

    @Test
    void partitionOfGivesOneUnchangingInstancePerPartition() throws IOException {
        Table table = createTable(PartitionSpec.builderFor(SCHEMA).identity("part").build());
        PartitionedRowWriter writer = (PartitionedRowWriter) writer(table, WriterMode.APPEND);

        StructLike north = writer.partitionOf(row(1, "north"));
        StructLike south = writer.partitionOf(row(2, "south"));
        assertThat(writer.partitionOf(row(3, "north"))).isSameAs(north);
        assertThat(north.get(0, String.class)).isEqualTo("north");
        assertThat(south.get(0, String.class)).isEqualTo("south");
        assertThat(writer.partitionOf(row(4, null)).get(0, String.class)).isNull();
        writer.abort();
    }

    @Test
    void unpartitionedTablesHaveNoPartitionAndOneFile() throws IOException {
        Table table = createTable(PartitionSpec.unpartitioned());
        TaskWriter<RowData> writer = writer(table, WriterMode.APPEND);
        assertThat(((PartitionedRowWriter) writer).partitionOf(row(1, "a"))).isNull();
        writer.write(row(1, "a"));
        writer.write(row(2, "b"));
        WriteResult result = writer.complete();
        assertThat(result.dataFiles()).hasSize(1);
        assertThat(contents(table, result))
                .containsExactly("1:value-of-row-1:a", "2:value-of-row-2:b");
    }

    @Test
    void partitionValuesThatDecodeToOneStringShareOneFile() throws IOException {
        Table table = createTable(PartitionSpec.builderFor(SCHEMA).identity("part").build());
        TaskWriter<RowData> writer = writer(table, WriterMode.APPEND);
        // two malformed UTF-8 values that both decode to "x\uFFFD": one partition for Iceberg
        for (byte last : new byte[] {(byte) 0xFF, (byte) 0xFE, (byte) 0xFF}) {
            GenericRowData row = row(last, "unused");
            row.setField(2, BinaryStringData.fromBytes(new byte[] {'x', last}));
            writer.write(row);
        }
        WriteResult result = writer.complete();
        assertThat(result.dataFiles()).hasSize(1);
        assertThat(result.dataFiles()[0].recordCount()).isEqualTo(3);
        assertThat(result.dataFiles()[0].partition().get(0, String.class)).isEqualTo("x\uFFFD");
    }

    private static GenericRowData row(long id, String part) {
        return GenericRowData.of(
                id,
                StringData.fromString("value-of-row-" + id),
                part == null ? null : StringData.fromString(part),
                id);
    }
}
