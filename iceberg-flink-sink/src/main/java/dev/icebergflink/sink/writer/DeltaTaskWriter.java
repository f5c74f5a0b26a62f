package dev.icebergflink.sink.writer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * Writes data rows and equality deletes for upsert and changelog input (see {@link WriterMode}).
 *
 * <p>It keeps no per-key state: it trusts its input to carry at most one change per key per
 * checkpoint (the pre-write de-duplication guarantees that for keyed input), so a key delete and
 * the new row of the same key can go into the same commit: Iceberg applies equality deletes only to
 * rows of earlier commits. Deletes are written in the partition of the row that carries them.
 */
final class DeltaTaskWriter extends PartitionedRowWriter {

    private final WriterMode mode;
    private final ProjectedRowData keyView;
    private final PartitionFanout<RowData, DeleteWriteResult> deleteWriters;

    DeltaTaskWriter(
            Table table,
            RowType flinkType,
            FileWriterFactory<RowData> writerFactory,
            OutputFileFactory fileFactory,
            long targetFileSizeBytes,
            WriterMode mode,
            RowDataProjection keyProjection) {
        super(table, flinkType, writerFactory, fileFactory, targetFileSizeBytes);
        this.mode = mode;
        this.keyView = keyProjection == null ? null : keyProjection.newView();
        this.deleteWriters =
                new PartitionFanout<>(
                        table.spec(),
                        (spec, partition) ->
                                new RollingEqualityDeleteWriter<>(
                                        writerFactory,
                                        fileFactory,
                                        io(),
                                        targetFileSizeBytes,
                                        spec,
                                        partition));
    }

    @Override
    public void write(RowData row) {
        switch (row.getRowKind()) {
            case INSERT:
            case UPDATE_AFTER:
                {
                    // the partition key is reused: write the delete before computing it again
                    if (mode == WriterMode.UPSERT) {
                        writeDelete(row);
                    }
                    writeData(row, partitionOf(row));
                    break;
                }
            case UPDATE_BEFORE:
                if (mode != WriterMode.UPSERT) {
                    writeDelete(row);
                }
                break;
            case DELETE:
                writeDelete(row);
                break;
            default:
                throw new IllegalArgumentException("Unknown row kind " + row.getRowKind());
        }
    }

    private void writeDelete(RowData row) {
        // the appenders encode the key at once, so one view serves every row
        RowData deleted = keyView == null ? row : keyView.replaceRow(row);
        deleteWriters.write(deleted, partitionOf(row));
    }

    @Override
    int openDeleteWriters() {
        return deleteWriters.openWriters();
    }

    @Override
    void completeDeletes(WriteResult.Builder result) throws IOException {
        for (DeleteWriteResult deletes : deleteWriters.results()) {
            result.addDeleteFiles(deletes.deleteFiles());
            result.addReferencedDataFiles(deletes.referencedDataFiles());
        }
    }

    @Override
    List<ContentFile<?>> closeDeletesForAbort() {
        List<ContentFile<?>> files = new ArrayList<>();
        try {
            for (DeleteWriteResult deletes : deleteWriters.results()) {
                files.addAll(deletes.deleteFiles());
            }
        } catch (IOException | RuntimeException e) {
            // unfinished files were never completed; nothing to return for them
        }
        return files;
    }
}
