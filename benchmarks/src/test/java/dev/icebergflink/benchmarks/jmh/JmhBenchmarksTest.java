package dev.icebergflink.benchmarks.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Calls each JMH benchmark's setup and benchmark methods once, directly (no JMH run), to prove they
 * work and do what they claim, on fewer rows than a real run.
 */
class JmhBenchmarksTest {

    private static final int ROWS = 300;

    private static Blackhole blackhole() {
        return new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is"
                        + " dangerous.");
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void fileWriteBenchmarkWritesTheRowsBothWays(FileFormat format) throws IOException {
        FileWriteBenchmark benchmark = new FileWriteBenchmark();
        benchmark.format = format;
        benchmark.rows = ROWS;
        benchmark.setUp();
        try {
            List<Record> expected = new BenchmarkRows(42L).records(ROWS);
            DataFile ours = benchmark.rowData();
            DataFile generic = benchmark.genericRecords();
            assertThat(ours.recordCount()).isEqualTo(ROWS);
            assertThat(generic.recordCount()).isEqualTo(ROWS);
            assertThat(ours.format()).isEqualTo(format);
            assertThat(readRecords(ours)).isEqualTo(expected);
            assertThat(readRecords(generic)).isEqualTo(expected);
            benchmark.deleteFiles();
            assertThat(new File(URI.create(ours.location()))).doesNotExist();
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void fileReadBenchmarkReadsEveryRowBothWays(FileFormat format) throws IOException {
        FileReadBenchmark benchmark = new FileReadBenchmark();
        benchmark.format = format;
        benchmark.rows = ROWS;
        benchmark.setUp();
        try {
            assertThat(benchmark.rowData(blackhole())).isEqualTo(ROWS);
            assertThat(benchmark.genericRecords(blackhole())).isEqualTo(ROWS);
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @CsvSource({
        "identity, generic",
        "bucket, generic",
        "day, generic",
        "identity, binary",
        "bucket, binary",
        "day, binary"
    })
    void partitionKeyBenchmarkRunsEveryPath(String transform, String layout) {
        PartitionKeyBenchmark benchmark = new PartitionKeyBenchmark();
        benchmark.transform = transform;
        benchmark.layout = layout;
        benchmark.setUp();
        benchmark.rowDataPartitionKey(blackhole());
        benchmark.writerRoute(blackhole());
        benchmark.icebergRoute(blackhole());
        benchmark.hashDistributionKey(blackhole());
        benchmark.genericPartitionKey(blackhole());
        // both routings found the same partitions: 16 categories or buckets, some hundred days
        int[] seen = benchmark.partitionsSeen();
        assertThat(seen[0]).isEqualTo(seen[1]);
        if (!transform.equals("day")) {
            assertThat(seen[0]).isEqualTo(16);
        }

        // The paths agree: the generic key of the first record is the RowData path's key.
        BenchmarkRows rows = new BenchmarkRows(1L);
        PartitionKey generic =
                new PartitionKey(PartitionKeyBenchmark.spec(transform), BenchmarkRows.SCHEMA);
        generic.partition(
                new InternalRecordWrapper(BenchmarkRows.SCHEMA.asStruct()).wrap(rows.record(0L)));
        PartitionKey ours =
                new PartitionKey(PartitionKeyBenchmark.spec(transform), BenchmarkRows.SCHEMA);
        ours.partition(
                new dev.icebergflink.data.row.RowDataStructLike(
                                BenchmarkRows.SCHEMA.asStruct(), BenchmarkRows.ROW_TYPE)
                        .wrap(rows.rowData(0L)));
        assertThat(ours).isEqualTo(generic);
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "combined"})
    void splitSerializerBenchmarkRoundTrips(String split) throws IOException {
        SplitSerializerBenchmark benchmark = new SplitSerializerBenchmark();
        benchmark.split = split;
        benchmark.setUp();
        try {
            assertThat(benchmark.serializeSplit()).hasSize(benchmark.splitBytes());
            assertThat(benchmark.deserializeSplit().task().files())
                    .hasSize(split.equals("single") ? 1 : 32);
            assertThat(benchmark.serializeEnumeratorState()).hasSize(benchmark.stateBytes());
            assertThat(benchmark.deserializeEnumeratorState().pendingSplits())
                    .hasSize(SplitSerializerBenchmark.PENDING_SPLITS);
        } finally {
            benchmark.tearDown();
        }
    }

    private static List<Record> readRecords(DataFile file) throws IOException {
        List<Record> records = new ArrayList<>();
        try (CloseableIterable<Record> rows =
                FormatModelRegistry.<Record, Object>readBuilder(
                                file.format(),
                                Record.class,
                                Files.localInput(new File(URI.create(file.location()))))
                        .project(BenchmarkRows.SCHEMA)
                        .build()) {
            rows.forEach(records::add);
        }
        return records;
    }
}
