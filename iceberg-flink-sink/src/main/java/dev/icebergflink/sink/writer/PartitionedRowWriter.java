package dev.icebergflink.sink.writer;

import dev.icebergflink.data.RowDataStructLike;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FileIO;
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
 */
abstract class PartitionedRowWriter implements TaskWriter<RowData> {

    private final PartitionSpec spec;
    private final PartitionKey partitionKey;
    private final RowDataStructLike structView;
    private final FileIO io;
    private final PartitionFanout<RowData, DataWriteResult> dataWriters;
    private boolean done;

    PartitionedRowWriter(
            Table table,
            RowType flinkType,
            FileWriterFactory<RowData> writerFactory,
            OutputFileFactory fileFactory,
            long targetFileSizeBytes) {
        this.spec = table.spec();
        this.partitionKey = new PartitionKey(spec, table.schema());
        // Rows may carry trailing row lineage columns after the table's columns; partitions
        // come from the table's columns only.
        int tableWidth = table.schema().columns().size();
        RowType tableType =
                flinkType.getFieldCount() == tableWidth
                        ? flinkType
                        : new RowType(flinkType.getFields().subList(0, tableWidth));
        this.structView = new RowDataStructLike(table.schema().asStruct(), tableType);
        this.io = table.io();
        this.dataWriters =
                new PartitionFanout<>(
                        spec,
                        (partitionSpec, partition) ->
                                new RollingDataWriter<>(
                                        writerFactory,
                                        fileFactory,
                                        io,
                                        targetFileSizeBytes,
                                        partitionSpec,
                                        partition));
    }

    PartitionSpec spec() {
        return spec;
    }

    FileIO io() {
        return io;
    }

    /** The partition of {@code row}; the returned key is reused by the next call. */
    StructLike partitionOf(RowData row) {
        if (spec.isUnpartitioned()) {
            return null;
        }
        partitionKey.partition(structView.wrap(row));
        return partitionKey;
    }

    void writeData(RowData row, StructLike partition) {
        dataWriters.write(row, partition);
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

    /** Closes the delete writers, whatever happens; returns their files for clean-up. */
    abstract List<ContentFile<?>> closeDeletesForAbort();

    @Override
    public WriteResult complete() throws IOException {
        checkOpen();
        done = true;
        WriteResult.Builder result = WriteResult.builder();
        for (DataWriteResult data : dataWriters.results()) {
            result.addDataFiles(data.dataFiles());
        }
        completeDeletes(result);
        return result.build();
    }

    @Override
    public void abort() throws IOException {
        if (done) {
            return;
        }
        done = true;
        List<ContentFile<?>> written = new ArrayList<>();
        try {
            for (DataWriteResult data : dataWriters.results()) {
                written.addAll(data.dataFiles());
            }
        } catch (IOException | RuntimeException e) {
            // the files that closed cleanly are removed below; the rest were never finished
        }
        written.addAll(closeDeletesForAbort());
        for (ContentFile<?> file : written) {
            try {
                io.deleteFile(file.location());
            } catch (RuntimeException e) {
                // best effort: uncommitted files are invisible to readers in any case
            }
        }
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
}
