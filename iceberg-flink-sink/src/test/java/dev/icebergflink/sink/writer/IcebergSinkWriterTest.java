package dev.icebergflink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergSinkWriterTest {

    @TempDir Path dir;

    @Test
    void handsOnOneResultPerCheckpointCountsMetricsAndCleansUpOnClose() throws Exception {
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "data", Types.StringType.get()));
        Table table =
                new HadoopTables(new Configuration())
                        .create(schema, PartitionSpec.unpartitioned(), dir.resolve("t").toString());
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(schema),
                        FileFormat.PARQUET,
                        1 << 20,
                        Map.of(),
                        WriterMode.APPEND,
                        List.of());
        TestingSinkWriterMetricGroup metrics = new TestingSinkWriterMetricGroup();
        IcebergSinkWriter writer = new IcebergSinkWriter(factory, new WriterMetrics(metrics), 0, 0);

        assertThat(writer.prepareCommit()).as("nothing written: no committable").isEmpty();
        writer.write(GenericRowData.of(1L, StringData.fromString("a")), null);
        writer.write(GenericRowData.of(2L, StringData.fromString("b")), null);
        writer.flush(false);
        List<WriteResult> results = List.copyOf(writer.prepareCommit());
        assertThat(results).hasSize(1);
        assertThat(results.get(0).dataFiles()).hasSize(1);
        long size = results.get(0).dataFiles()[0].fileSizeInBytes();

        assertThat(metrics.counters.get("recordsWritten").getCount()).isEqualTo(2);
        assertThat(metrics.counters.get("numRecordsSend").getCount()).isEqualTo(2);
        assertThat(metrics.counters.get("filesWritten").getCount()).isEqualTo(1);
        assertThat(metrics.counters.get("bytesWritten").getCount()).isEqualTo(size);
        assertThat(metrics.counters.get("numBytesSend").getCount()).isEqualTo(size);

        // rows written after the last checkpoint are removed when the writer closes
        writer.write(GenericRowData.of(3L, StringData.fromString("c")), null);
        writer.close();
        try (Stream<Path> files = Files.walk(dir.resolve("t").resolve("data"))) {
            assertThat(
                            files.filter(Files::isRegularFile)
                                    .map(Path::toFile)
                                    .map(File::getName)
                                    .filter(name -> name.endsWith(".parquet")))
                    .containsExactly(
                            Path.of(results.get(0).dataFiles()[0].location())
                                    .getFileName()
                                    .toString());
        }
    }
}
