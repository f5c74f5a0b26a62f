package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The limits the connector is measured against: Iceberg's own generic writer and reader
 * (iceberg-data), driven the simplest fast way, with no Flink in between. The writer splits the
 * rows into one contiguous id range per core, writes each range with a rolling {@link
 * GenericFileWriterFactory} writer (a fanout of them into a partitioned table) on its own thread
 * and commits all files in one append; the reader plans the table's scan tasks and reads them with
 * the generic format readers on one thread per core.
 */
public final class GenericLimits {

    private GenericLimits() {}

    /** The threads the limits use: one per core. */
    public static int threads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Writes the rows with ids {@code [0, rows)} of {@code data} into the table in its default file
     * format and by its partition spec, and commits them in one append.
     */
    public static void write(Table table, BenchmarkRows data, long rows) {
        int threads = threads();
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .dataFileFormat(fileFormat(table))
                        .dataSchema(table.schema())
                        .build();
        long targetSize =
                PropertyUtil.propertyAsLong(
                        table.properties(),
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        List<DataFile> files = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<DataFile>>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int part = t;
                long from = rows * t / threads;
                long to = rows * (t + 1) / threads;
                parts.add(
                        pool.submit(
                                () -> {
                                    OutputFileFactory outputs =
                                            OutputFileFactory.builderFor(table, part, 0)
                                                    .format(fileFormat(table))
                                                    .build();
                                    return writeRange(
                                            table, writers, outputs, targetSize, data, from, to);
                                }));
            }
            for (Future<List<DataFile>> part : parts) {
                files.addAll(part.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while writing " + table.name(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Generic write into " + table.name() + " failed", e);
        } finally {
            pool.shutdownNow();
        }
        AppendFiles append = table.newAppend();
        files.forEach(append::appendFile);
        append.commit();
    }

    /**
     * Writes the rows with ids {@code [from, to)}: a rolling writer into an unpartitioned table, a
     * fanout writer (one open rolling file per partition) into a partitioned one, as a program that
     * writes without shuffling its rows by partition would.
     */
    private static List<DataFile> writeRange(
            Table table,
            GenericFileWriterFactory writers,
            OutputFileFactory outputs,
            long targetSize,
            BenchmarkRows data,
            long from,
            long to)
            throws IOException {
        PartitionSpec spec = table.spec();
        if (spec.isUnpartitioned()) {
            RollingDataWriter<Record> writer =
                    new RollingDataWriter<>(writers, outputs, table.io(), targetSize, spec, null);
            try (writer) {
                for (long id = from; id < to; id++) {
                    writer.write(data.record(id));
                }
            }
            return writer.result().dataFiles();
        }
        PartitionKey partition = new PartitionKey(spec, table.schema());
        FanoutDataWriter<Record> writer =
                new FanoutDataWriter<>(writers, outputs, table.io(), targetSize);
        try (writer) {
            for (long id = from; id < to; id++) {
                Record record = data.record(id);
                partition.partition(record);
                writer.write(record, spec, partition);
            }
        }
        return writer.result().dataFiles();
    }

    /** Reads every row of the table's current snapshot and returns how many there were. */
    public static long read(Table table) {
        List<FileScanTask> tasks = new ArrayList<>();
        try (CloseableIterable<CombinedScanTask> planned = table.newScan().planTasks()) {
            for (CombinedScanTask combined : planned) {
                tasks.addAll(combined.files());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int threads = threads();
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long total = 0;
        try {
            List<Future<Long>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                parts.add(
                        pool.submit(
                                () -> {
                                    long count = 0;
                                    for (int i = next.getAndIncrement();
                                            i < tasks.size();
                                            i = next.getAndIncrement()) {
                                        count += readTask(table, tasks.get(i));
                                    }
                                    return count;
                                }));
            }
            for (Future<Long> part : parts) {
                total += part.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading " + table.name(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Generic read of " + table.name() + " failed", e);
        } finally {
            pool.shutdownNow();
        }
        return total;
    }

    private static long readTask(Table table, FileScanTask task) throws IOException {
        long count = 0;
        try (CloseableIterable<Record> records =
                FormatModelRegistry.<Record, Object>readBuilder(
                                task.file().format(),
                                Record.class,
                                table.io().newInputFile(task.file().location()))
                        .project(table.schema())
                        .split(task.start(), task.length())
                        .filter(task.residual())
                        .build()) {
            for (Record ignored : records) {
                count++;
            }
        }
        return count;
    }

    private static org.apache.iceberg.FileFormat fileFormat(Table table) {
        return org.apache.iceberg.FileFormat.fromString(
                table.properties()
                        .getOrDefault(
                                TableProperties.DEFAULT_FILE_FORMAT,
                                TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
    }
}
