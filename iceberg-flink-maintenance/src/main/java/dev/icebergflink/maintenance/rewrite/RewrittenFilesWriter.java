package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.data.OpenedFiles;
import dev.icebergflink.data.row.RowDataPartitioner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.util.StructLikeMap;

/**
 * Writes the rows of one rewrite unit into new data files of the table's current partition spec:
 * one Iceberg {@link RollingDataWriter} per partition (rows need not arrive clustered), files
 * rolled at the rewrite's target size.
 *
 * <p>It exists so that the rewrite writes with Iceberg's own writer classes and core's RowData file
 * writers, without the streaming sink's task writers (which serve row kinds, deletes and
 * checkpoints a rewrite does not have). Rows may carry the row lineage columns after the table's
 * columns; partitions come from the table's columns only.
 *
 * <p>Every file it opens is recorded when its writer is created, so {@link #abort} removes them
 * all, finished or not: Iceberg's rolling writers report the files they rolled only when they close
 * cleanly. Not thread-safe; one instance per unit.
 */
final class RewrittenFilesWriter {

    private final PartitionSpec spec;
    private final RowDataPartitioner partitioner;
    private final FileWriterFactory<RowData> writers;
    private final OutputFileFactory files;
    private final FileIO io;
    private final long targetFileSize;
    private final Map<StructLike, RollingDataWriter<RowData>> partitionWriters;
    private final List<RollingDataWriter<RowData>> openWriters = new ArrayList<>();
    private final OpenedFiles opened = new OpenedFiles();
    private RollingDataWriter<RowData> unpartitionedWriter;

    /**
     * @param table the table written; its current spec partitions the rows
     * @param rowType the type of the rows: the table's columns, maybe followed by row lineage
     * @param writers creates the file writers (core's RowData writer factory)
     * @param files names the new files
     * @param targetFileSize the size at which files are rolled
     */
    RewrittenFilesWriter(
            Table table,
            RowType rowType,
            FileWriterFactory<RowData> writers,
            OutputFileFactory files,
            long targetFileSize) {
        this.spec = table.spec();
        int tableWidth = table.schema().columns().size();
        RowType tableType =
                rowType.getFieldCount() == tableWidth
                        ? rowType
                        : new RowType(rowType.getFields().subList(0, tableWidth));
        this.partitioner = new RowDataPartitioner(spec, table.schema(), tableType);
        this.writers = opened.recording(writers);
        this.files = files;
        this.io = table.io();
        this.targetFileSize = targetFileSize;
        this.partitionWriters = StructLikeMap.create(spec.partitionType());
    }

    /** Writes one row into the files of its partition. */
    void write(RowData row) {
        writerFor(row).write(row);
    }

    /**
     * Closes every file and returns the data files written.
     *
     * @throws IOException when a file cannot be closed; the caller then calls {@link #abort}
     */
    List<DataFile> complete() throws IOException {
        List<DataFile> written = new ArrayList<>();
        for (RollingDataWriter<RowData> writer : openWriters) {
            writer.close();
            written.addAll(writer.result().dataFiles());
        }
        openWriters.clear();
        return written;
    }

    /**
     * Closes what is still open and deletes every file this writer opened, best effort: failures
     * are added to {@code failure} as suppressed exceptions.
     */
    void abort(Throwable failure) {
        for (RollingDataWriter<RowData> writer : openWriters) {
            try {
                writer.close();
            } catch (IOException | RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
        openWriters.clear();
        opened.deleteAll(io, failure);
    }

    private RollingDataWriter<RowData> writerFor(RowData row) {
        if (partitioner.isUnpartitioned()) {
            if (unpartitionedWriter == null) {
                unpartitionedWriter = newWriter(null);
            }
            return unpartitionedWriter;
        }
        PartitionKey partition = partitioner.partition(row);
        RollingDataWriter<RowData> writer = partitionWriters.get(partition);
        if (writer == null) {
            PartitionKey detached = partitioner.detachedPartition(row);
            writer = newWriter(detached);
            partitionWriters.put(detached, writer);
        }
        return writer;
    }

    private RollingDataWriter<RowData> newWriter(StructLike partition) {
        RollingDataWriter<RowData> writer =
                new RollingDataWriter<>(writers, files, io, targetFileSize, spec, partition);
        openWriters.add(writer);
        return writer;
    }
}
