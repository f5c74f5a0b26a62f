package dev.icebergflink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.reader.TaskTestTables;
import dev.icebergflink.testing.GenericFileWriters;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ColumnStatsWatermarkExtractorTest {

    @TempDir Path dir;

    private IcebergSourceSplit allFilesSplit(Table table) {
        return ReaderTestTables.oneSplit(TaskTestTables.planFiles(table, null, true));
    }

    @Test
    void takesTheSmallestLowerBoundOfTheSplitsFilesInMillis() {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(7, 9, "a"));
        TaskTestTables.append(table, FileFormat.ORC, TaskTestTables.records(3, 5, "b"));
        IcebergSourceSplit split = allFilesSplit(table);

        // ts = id * 1000
        assertThat(
                        new ColumnStatsWatermarkExtractor(
                                        table.schema(), "ts", TimeUnit.MILLISECONDS, true)
                                .extractWatermark(split))
                .isEqualTo(3000L);
        assertThat(
                        new ColumnStatsWatermarkExtractor(
                                        table.schema(), "TS", TimeUnit.SECONDS, false)
                                .extractWatermark(split))
                .isEqualTo(3_000_000L);
        assertThat(
                        new ColumnStatsWatermarkExtractor(
                                        table.schema(), "ts", TimeUnit.MICROSECONDS, true)
                                .extractWatermark(split))
                .isEqualTo(3L);
    }

    @Test
    void readsTimestampColumnsAsMicros() {
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "at", Types.TimestampType.withZone()));
        Table table =
                new org.apache.iceberg.hadoop.HadoopTables(
                                new org.apache.hadoop.conf.Configuration())
                        .create(schema, dir.resolve("ts").toString());
        org.apache.iceberg.data.GenericRecord record =
                org.apache.iceberg.data.GenericRecord.create(schema);
        record.setField("id", 1L);
        record.setField(
                "at",
                java.time.OffsetDateTime.ofInstant(
                        Instant.ofEpochMilli(1_700_000_000_123L), java.time.ZoneOffset.UTC));
        org.apache.iceberg.io.DataWriter<org.apache.iceberg.data.Record> writer =
                GenericFileWriters.data(table, schema, FileFormat.PARQUET)
                        .newDataWriter(
                                org.apache.iceberg.encryption.EncryptedFiles.plainAsEncryptedOutput(
                                        table.io()
                                                .newOutputFile(
                                                        table.locationProvider()
                                                                .newDataLocation("f.parquet"))),
                                table.spec(),
                                null);
        try (writer) {
            writer.write(record);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        table.newAppend().appendFile(writer.toDataFile()).commit();

        assertThat(
                        new ColumnStatsWatermarkExtractor(schema, "at", null, true)
                                .extractWatermark(allFilesSplit(table)))
                .isEqualTo(1_700_000_000_123L);
    }

    @Test
    void failsWhenSplitsWerePlannedWithoutColumnStatistics() throws Exception {
        Table table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 2, "a"));
        List<FileScanTask> withoutStats = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(withoutStats::add);
        }
        IcebergSourceSplit split = ReaderTestTables.oneSplit(withoutStats);

        assertThatThrownBy(
                        () ->
                                new ColumnStatsWatermarkExtractor(
                                                table.schema(), "ts", TimeUnit.MILLISECONDS, true)
                                        .extractWatermark(split))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Missing lower bound statistics of watermark column 'ts'")
                .hasMessageContaining(split.splitId());
    }

    @Test
    void rejectsMissingColumnsAndUnsupportedTypes() {
        Schema schema = TaskTestTables.SCHEMA;
        assertThatThrownBy(
                        () ->
                                new ColumnStatsWatermarkExtractor(
                                        schema, "nope", TimeUnit.MILLISECONDS, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Watermark column 'nope' is not in the table schema");
        assertThatThrownBy(
                        () ->
                                new ColumnStatsWatermarkExtractor(
                                        schema, "TS", TimeUnit.MILLISECONDS, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'TS'");
        assertThatThrownBy(
                        () ->
                                new ColumnStatsWatermarkExtractor(
                                        schema, "data", TimeUnit.MILLISECONDS, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Watermark column 'data' has type string")
                .hasMessageContaining("allowed types: long, timestamp, timestamp_ns");
    }
}
