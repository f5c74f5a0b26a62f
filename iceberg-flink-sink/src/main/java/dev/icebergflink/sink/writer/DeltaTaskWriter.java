package dev.icebergflink.sink.writer;

import dev.icebergflink.data.OpenedFiles;
import dev.icebergflink.sink.distribution.EqualityKeyBytes;
import java.io.IOException;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * Writes data rows and equality deletes for upsert and changelog input (see {@link WriterMode}).
 *
 * <p>A key delete and the new row of the same key can go into the same commit: Iceberg applies
 * equality deletes only to rows of earlier commits. Deletes are written in the partition of the row
 * that carries them. Two changes of one key within a checkpoint are handled in one of two ways:
 *
 * <ul>
 *   <li>Without key tracking the writer keeps no per-key state and trusts its input to carry at
 *       most one change per key per checkpoint (the keyed pre-write de-duplication of streaming
 *       execution guarantees that).
 *   <li>With key tracking (BATCH execution, where all changes of a key reach this writer in input
 *       order) every change is written as it comes, and {@link SupersededRows} records each
 *       change's key and written row; when the checkpoint completes, every row that a later change
 *       of its key followed is deleted by position ({@link WrittenRowDeletes}), so only the last
 *       change of a key survives.
 * </ul>
 */
final class DeltaTaskWriter extends PartitionedRowWriter {

    private final WriterMode mode;
    private final ProjectedRowData keyView;
    private final PartitionFanout<RowData, DeleteWriteResult, RollingEqualityDeleteWriter<RowData>>
            deleteWriters;
    private final KeyTracking tracking;

    DeltaTaskWriter(
            Table table,
            RowType flinkType,
            FileWriterFactory<RowData> writerFactory,
            OutputFileFactory fileFactory,
            long targetFileSizeBytes,
            OpenedFiles opened,
            WriterMode mode,
            RowDataProjection keyProjection,
            KeyTracking tracking) {
        super(table, flinkType, writerFactory, fileFactory, targetFileSizeBytes, opened);
        this.mode = mode;
        this.tracking = tracking;
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
                    long location = writeData(row, partitionOf(row));
                    if (tracking != null) {
                        tracking.written(row, location);
                    }
                    break;
                }
            case UPDATE_BEFORE:
                if (mode != WriterMode.UPSERT) {
                    retract(row);
                }
                break;
            case DELETE:
                retract(row);
                break;
            default:
                throw new IllegalArgumentException("Unknown row kind " + row.getRowKind());
        }
    }

    private void retract(RowData row) {
        writeDelete(row);
        if (tracking != null) {
            tracking.retracted(row);
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
        if (tracking != null) {
            for (DeleteWriteResult deletes : tracking.deleteSuperseded(this)) {
                result.addDeleteFiles(deletes.deleteFiles());
                result.addReferencedDataFiles(deletes.referencedDataFiles());
            }
        }
    }

    @Override
    void closeDeletesForAbort() {
        try {
            deleteWriters.close();
        } catch (IOException | RuntimeException e) {
            // the caller deletes every file, finished or not
        }
        if (tracking != null) {
            tracking.closeForAbort();
        }
    }

    /**
     * The key tracking of one checkpoint: the keys of changes and the locations of written rows,
     * and the deletes of superseded rows.
     */
    static final class KeyTracking {
        private final EqualityKeyBytes keys;
        private final SupersededRows superseded;
        private final WrittenRowDeletes deletes;

        KeyTracking(EqualityKeyBytes keys, SupersededRows superseded, WrittenRowDeletes deletes) {
            this.keys = keys;
            this.superseded = superseded;
            this.deletes = deletes;
        }

        void written(RowData row, long location) {
            // encode first: a longer key may replace the buffer
            int length = keys.encode(row);
            superseded.written(keys.bytes(), length, location);
        }

        void retracted(RowData row) {
            int length = keys.encode(row);
            superseded.retracted(keys.bytes(), length);
        }

        /** Deletes the superseded rows by position, once the data files are complete. */
        List<DeleteWriteResult> deleteSuperseded(PartitionedRowWriter writer) throws IOException {
            try (SupersededRows rows = superseded) {
                rows.resolve(location -> writer.locate(location, deletes::delete));
            }
            return deletes.results();
        }

        void closeForAbort() {
            try {
                superseded.close();
            } catch (IOException | RuntimeException e) {
                // a spill file left behind is in the temporary directory; nothing else to undo
            }
            deletes.closeForAbort();
        }
    }
}
