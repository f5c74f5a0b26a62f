package dev.icebergflink.benchmarks.jmh;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.data.RowDataFileReaders;
import dev.icebergflink.data.RowDataFileWriterFactory;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.InputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reads one local data file of the benchmark rows (all columns): into {@link RowData} through the
 * connector's {@link RowDataFileReaders}, and, as the baseline, into generic {@link Record}s
 * through Iceberg's registered generic reader, for Parquet, ORC and Avro. Both read without
 * container reuse, as the source's readers do. {@link #rowDataCopied} adds what Flink does to every
 * record between chained operators when object reuse is off (a {@link RowDataSerializer#copy}),
 * which is what a source's rows really cost downstream.
 *
 * <p>Scores are rows per second ({@link #ROWS} rows per invocation).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class FileReadBenchmark {

    /** Rows in the file read per invocation. */
    public static final int ROWS = 100_000;

    @Param({"PARQUET", "ORC", "AVRO"})
    public FileFormat format;

    /** Rows in the file; only tests change it. */
    public int rows = ROWS;

    private BenchmarkTable table;
    private InputFile file;
    private RowDataSerializer serializer;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        table =
                BenchmarkTable.create(
                        BenchmarkRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
        String location = table.fileLocation("read." + format.name().toLowerCase());
        DataWriter<RowData> writer =
                RowDataFileWriterFactory.builderFor(table.table())
                        .dataFileFormat(format)
                        .build()
                        .newDataWriter(
                                EncryptedFiles.plainAsEncryptedOutput(
                                        table.table().io().newOutputFile(location)),
                                PartitionSpec.unpartitioned(),
                                null);
        try (writer) {
            for (RowData row : new BenchmarkRows(42L).rowData(rows)) {
                writer.write(row);
            }
        }
        file = table.table().io().newInputFile(location);
        serializer = new RowDataSerializer(FlinkSchemaUtil.convert(BenchmarkRows.SCHEMA));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        table.close();
    }

    /** The connector: RowData from {@link RowDataFileReaders}; returns the rows read. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long rowData(Blackhole blackhole) throws IOException {
        return consume(
                RowDataFileReaders.readBuilder(format, file).project(BenchmarkRows.SCHEMA).build(),
                blackhole);
    }

    /**
     * The connector's rows, each copied by Flink's {@link RowDataSerializer} as between chained
     * operators without object reuse; returns the rows read.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long rowDataCopied(Blackhole blackhole) throws IOException {
        long count = 0;
        try (CloseableIterable<RowData> rows =
                RowDataFileReaders.readBuilder(format, file)
                        .project(BenchmarkRows.SCHEMA)
                        .build()) {
            for (RowData row : rows) {
                blackhole.consume(serializer.copy(row));
                count++;
            }
        }
        return count;
    }

    /** The baseline: generic records from Iceberg's generic reader; returns the rows read. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long genericRecords(Blackhole blackhole) throws IOException {
        return consume(
                FormatModelRegistry.<Record, Object>readBuilder(format, Record.class, file)
                        .project(BenchmarkRows.SCHEMA)
                        .build(),
                blackhole);
    }

    private static <T> long consume(CloseableIterable<T> rows, Blackhole blackhole)
            throws IOException {
        long count = 0;
        try (rows) {
            for (T row : rows) {
                blackhole.consume(row);
                count++;
            }
        }
        return count;
    }
}
