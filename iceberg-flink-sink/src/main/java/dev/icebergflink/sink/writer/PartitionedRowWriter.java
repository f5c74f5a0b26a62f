package dev.icebergflink.sink.writer;

import dev.icebergflink.data.OpenedFiles;
import dev.icebergflink.data.row.RowDataPartitioner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * The part every task writer shares: computing a row's partition and writing data rows into rolling
 * files per partition; and completing or aborting those files.
 *
 * <p>It exists so that the append and the delta writer differ only in what they do per row kind.
 *
 * <p>Routing a row costs one lookup of its {@link RowDataPartitioner.Key} (no string decoding for
 * identity partitions of strings); Iceberg's partition is computed only for a partition not seen
 * before in this writer, and {@link #partitionOf} returns one shared copy per partition, so that
 * {@link #writeData} can go straight to that partition's file writer.
 *
 * <p>Every data row gets a location ({@link #writeData}'s result): its partition writer's ordinal
 * and its ordinal among that writer's rows. Once the data files are complete, {@link #locate} turns
 * a location into the data file and position of the row, for position deletes of rows written by
 * this writer.
 */
abstract class PartitionedRowWriter implements TaskWriter<RowData> {

    private final PartitionSpec spec;
    private final RowDataPartitioner partitioner;
    private final boolean partitioned;
    private final Map<RowDataPartitioner.Key, Route> routes = new HashMap<>();
    private final FileIO io;
    private final PartitionFanout<RowData, DataWriteResult, CountingDataWriter> dataWriters;
    private final List<CountingDataWriter> dataWritersInOrder = new ArrayList<>();
    private final OpenedFiles opened;
    private Route lastRoute;
    private boolean done;

    PartitionedRowWriter(
            Table table,
            RowType flinkType,
            FileWriterFactory<RowData> writerFactory,
            OutputFileFactory fileFactory,
            long targetFileSizeBytes,
            OpenedFiles opened) {
        this.spec = table.spec();
        this.opened = opened;
        // Rows may carry trailing row lineage columns after the table's columns; partitions
        // come from the table's columns only.
        int tableWidth = table.schema().columns().size();
        RowType tableType =
                flinkType.getFieldCount() == tableWidth
                        ? flinkType
                        : new RowType(flinkType.getFields().subList(0, tableWidth));
        this.partitioner = new RowDataPartitioner(spec, table.schema(), tableType);
        this.partitioned = !partitioner.isUnpartitioned();
        this.io = table.io();
        this.dataWriters =
                new PartitionFanout<>(
                        spec,
                        (partitionSpec, partition) -> {
                            CountingDataWriter writer =
                                    new CountingDataWriter(
                                            dataWritersInOrder.size(),
                                            new RollingDataWriter<>(
                                                    writerFactory,
                                                    fileFactory,
                                                    io,
                                                    targetFileSizeBytes,
                                                    partitionSpec,
                                                    partition));
                            dataWritersInOrder.add(writer);
                            return writer;
                        });
    }

    PartitionSpec spec() {
        return spec;
    }

    FileIO io() {
        return io;
    }

    /**
     * The partition of {@code row} (null when unpartitioned): one shared, never modified instance
     * per partition key seen by this writer (rows of one partition whose strings differ only in
     * malformed UTF-8 get equal instances, and still one file writer).
     */
    StructLike partitionOf(RowData row) {
        if (!partitioned) {
            return null;
        }
        RowDataPartitioner.Key key = partitioner.key(row);
        Route route = routes.get(key);
        if (route == null) {
            route = new Route(partitioner.detachedPartition(row));
            routes.put(key.detach(), route);
        }
        lastRoute = route;
        return route.partition;
    }

    /**
     * Writes a data row into the file of {@code partition} (from {@link #partitionOf}); returns the
     * row's location (at least 0), which {@link #locate} resolves once the data files are complete.
     */
    long writeData(RowData row, StructLike partition) {
        Route route = lastRoute;
        CountingDataWriter writer;
        if (route != null && route.partition == partition) {
            if (route.dataWriter == null) {
                route.dataWriter = dataWriters.writerFor(partition);
            }
            writer = route.dataWriter;
        } else {
            writer = dataWriters.writerFor(partition);
        }
        return writer.writeRow(row);
    }

    /**
     * Hands the data file and position of the row written at {@code location} to {@code consumer};
     * only after {@link #complete} has completed the data files (that is, from {@link
     * #completeDeletes}).
     */
    void locate(long location, RowPositionConsumer consumer) {
        int ordinal = (int) (location >>> ROW_BITS);
        dataWritersInOrder.get(ordinal).locate(location & ROW_MASK, consumer);
    }

    /** Receives a located row: its data file and its position in that file. */
    @FunctionalInterface
    interface RowPositionConsumer {
        void accept(DataFile file, long position);
    }

    /** Open data file writers (one per partition written; tests). */
    int openDataWriters() {
        return dataWriters.openWriters();
    }

    /** Open delete file writers (one per partition deleted from; tests). */
    int openDeleteWriters() {
        return 0;
    }

    /** Adds this writer's delete files to {@code result}; closes the delete writers. */
    abstract void completeDeletes(WriteResult.Builder result) throws IOException;

    /**
     * Closes the delete writers (and anything else they hold open), whatever happens; the files
     * they opened are deleted by the caller.
     */
    abstract void closeDeletesForAbort();

    /**
     * Closes every file and returns them. When that fails, every file this writer opened, finished
     * or not, is deleted (none of them will be committed; a file that cannot be deleted is added to
     * the failure as a suppressed exception) before the failure propagates.
     */
    @Override
    public WriteResult complete() throws IOException {
        checkOpen();
        done = true;
        try {
            WriteResult.Builder result = WriteResult.builder();
            for (DataWriteResult data : dataWriters.results()) {
                result.addDataFiles(data.dataFiles());
            }
            completeDeletes(result);
            return result.build();
        } catch (IOException | RuntimeException | Error e) {
            discard(e);
            throw e;
        }
    }

    /** Closes every writer and deletes every file this writer opened. */
    @Override
    public void abort() throws IOException {
        if (done) {
            return;
        }
        done = true;
        discard(null);
    }

    private void discard(Throwable failure) {
        try {
            dataWriters.close();
        } catch (IOException | RuntimeException e) {
            // unfinished files are deleted below with the others
        }
        closeDeletesForAbort();
        opened.deleteAll(io, failure);
    }

    @Override
    public void close() throws IOException {
        abort();
    }

    @Override
    public DataFile[] dataFiles() {
        throw new UnsupportedOperationException("Use complete()");
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException("This task writer was already completed or aborted");
        }
    }

    /** Bits of a location that count rows within one partition writer. */
    private static final int ROW_BITS = 40;

    private static final long ROW_MASK = (1L << ROW_BITS) - 1;

    /** Partition writers a location can name: its sign bit stays clear. */
    private static final int MAX_WRITERS = 1 << (Long.SIZE - 1 - ROW_BITS);

    /**
     * The rolling data files of one partition, counting rows so that each row's location is known
     * when it is written and its file and position once the files are complete.
     */
    private static final class CountingDataWriter implements FileWriter<RowData, DataWriteResult> {
        private final long ordinalBits;
        private final RollingDataWriter<RowData> files;
        private long rows;
        // after completion: the data files in write order and the first row of each
        private List<DataFile> completed;
        private long[] firstRows;

        private CountingDataWriter(int ordinal, RollingDataWriter<RowData> files) {
            if (ordinal >= MAX_WRITERS) {
                throw new IllegalStateException(
                        "A delta writer cannot track rows of more than "
                                + MAX_WRITERS
                                + " partitions in one checkpoint");
            }
            this.ordinalBits = (long) ordinal << ROW_BITS;
            this.files = files;
        }

        long writeRow(RowData row) {
            files.write(row);
            return ordinalBits | rows++;
        }

        @Override
        public void write(RowData row) {
            writeRow(row);
        }

        @Override
        public long length() {
            return files.length();
        }

        @Override
        public void close() throws IOException {
            files.close();
        }

        @Override
        public DataWriteResult result() {
            return files.result();
        }

        void locate(long row, RowPositionConsumer consumer) {
            if (completed == null) {
                completed = files.result().dataFiles();
                firstRows = new long[completed.size()];
                long first = 0;
                for (int i = 0; i < firstRows.length; i++) {
                    firstRows[i] = first;
                    first += completed.get(i).recordCount();
                }
                if (first != rows) {
                    throw new IllegalStateException(
                            "Data files of " + first + " rows, but " + rows + " were written");
                }
            }
            int found = Arrays.binarySearch(firstRows, row);
            int file = found >= 0 ? found : -found - 2;
            consumer.accept(completed.get(file), row - firstRows[file]);
        }
    }

    /** A partition seen by this writer: its shared partition struct and its data file writer. */
    private static final class Route {
        private final StructLike partition;
        private CountingDataWriter dataWriter;

        private Route(StructLike partition) {
            this.partition = partition;
        }
    }
}
