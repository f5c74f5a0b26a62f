package dev.icebergflink.benchmarks.jmh;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.data.RowDataFileWriterFactory;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileWriterFactory;
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

/**
 * Writes the benchmark rows into one local data file per invocation: as {@link RowData} through the
 * connector's {@link RowDataFileWriterFactory}, and, as the baseline, the same rows as generic
 * {@link Record}s through Iceberg's {@link GenericFileWriterFactory}, for Parquet, ORC and Avro.
 *
 * <p>Scores are rows per second ({@link #ROWS} rows per invocation); the file is closed inside the
 * measurement, so footer and metrics work count too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class FileWriteBenchmark {

    /** Rows written per invocation (one file). */
    public static final int ROWS = 100_000;

    @Param({"PARQUET", "ORC", "AVRO"})
    public FileFormat format;

    /** Rows per invocation; only tests change it. */
    public int rows = ROWS;

    private BenchmarkTable table;
    private List<RowData> rowData;
    private List<Record> records;
    private FileWriterFactory<RowData> rowDataWriters;
    private FileWriterFactory<Record> genericWriters;
    private long fileNumber;

    @Setup(Level.Trial)
    public void setUp() {
        BenchmarkRows generated = new BenchmarkRows(42L);
        rowData = generated.rowData(rows);
        records = generated.records(rows);
        table =
                BenchmarkTable.create(
                        BenchmarkRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
        rowDataWriters =
                RowDataFileWriterFactory.builderFor(table.table()).dataFileFormat(format).build();
        genericWriters =
                new GenericFileWriterFactory.Builder(table.table()).dataFileFormat(format).build();
    }

    @TearDown(Level.Iteration)
    public void deleteFiles() {
        table.deleteFolder("data");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        table.close();
    }

    /** The connector: RowData through {@link RowDataFileWriterFactory}. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public DataFile rowData() throws IOException {
        return write(rowDataWriters, rowData);
    }

    /** The baseline: generic records through Iceberg's {@link GenericFileWriterFactory}. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public DataFile genericRecords() throws IOException {
        return write(genericWriters, records);
    }

    private <T> DataFile write(FileWriterFactory<T> factory, List<T> input) throws IOException {
        EncryptedOutputFile file =
                EncryptedFiles.plainAsEncryptedOutput(
                        table.table()
                                .io()
                                .newOutputFile(
                                        table.fileLocation(
                                                "data/file-"
                                                        + fileNumber++
                                                        + "."
                                                        + format.name().toLowerCase())));
        DataWriter<T> writer = factory.newDataWriter(file, PartitionSpec.unpartitioned(), null);
        try (writer) {
            for (T row : input) {
                writer.write(row);
            }
        }
        return writer.toDataFile();
    }
}
