package dev.icebergflink.sink.writer;

import dev.icebergflink.data.OpenedFiles;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DVFileWriter;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.SortingPositionOnlyDeleteWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Deletes rows that this writer itself wrote in the running checkpoint, by position: the rows a
 * later change of their key superseded ({@link SupersededRows}).
 *
 * <p>It exists because such rows cannot be removed by the equality deletes of the same commit
 * (Iceberg applies equality deletes only to older data). Format v2 tables get position delete
 * files, one per partition or per data file as the table's {@code write.delete.granularity} says,
 * sorted by Iceberg's {@link SortingPositionOnlyDeleteWriter} (positions arrive in any order);
 * format v3 tables get deletion vectors, which v3 requires for position deletes.
 */
final class WrittenRowDeletes {

    private final PartitionSpec spec;
    private final PartitionFanout<
                    PositionDelete<RowData>,
                    DeleteWriteResult,
                    SortingPositionOnlyDeleteWriter<RowData>>
            positionDeletes;
    private final boolean useDeletionVectors;
    private final OutputFileFactory fileFactory;
    private final OpenedFiles opened;
    // created with the first delete, so that a checkpoint without superseded rows writes no Puffin
    // file
    private DVFileWriter deletionVectors;
    private final PositionDelete<RowData> delete = PositionDelete.create();
    private boolean deletionVectorsClosed;

    WrittenRowDeletes(
            Table table,
            FileWriterFactory<RowData> writerFactory,
            OutputFileFactory fileFactory,
            Map<String, String> writeProperties,
            OpenedFiles opened) {
        this.spec = table.spec();
        this.fileFactory = fileFactory;
        this.opened = opened;
        this.useDeletionVectors = TableUtil.formatVersion(table) >= 3;
        if (useDeletionVectors) {
            this.positionDeletes = null;
        } else {
            DeleteGranularity granularity =
                    DeleteGranularity.fromString(
                            writeProperties.getOrDefault(
                                    TableProperties.DELETE_GRANULARITY,
                                    TableProperties.DELETE_GRANULARITY_DEFAULT));
            this.positionDeletes =
                    new PartitionFanout<>(
                            spec,
                            (deleteSpec, partition) ->
                                    new SortingPositionOnlyDeleteWriter<>(
                                            () ->
                                                    writerFactory.newPositionDeleteWriter(
                                                            fileFactory.newOutputFile(
                                                                    deleteSpec, partition),
                                                            deleteSpec,
                                                            partition),
                                            granularity));
        }
    }

    /** Deletes the row at {@code position} of {@code file}, a data file this writer wrote. */
    void delete(DataFile file, long position) {
        if (useDeletionVectors) {
            if (deletionVectors == null) {
                // the data files are new in this commit, so none has earlier deletes to merge
                deletionVectors =
                        new BaseDVFileWriter(() -> opened.newOutputFile(fileFactory), path -> null);
            }
            deletionVectors.delete(file.location(), position, spec, file.partition());
        } else {
            positionDeletes.write(delete.set(file.location(), position), file.partition());
        }
    }

    /** Completes the delete files; idempotent. */
    List<DeleteWriteResult> results() throws IOException {
        if (useDeletionVectors) {
            if (deletionVectors == null) {
                return List.of();
            }
            if (!deletionVectorsClosed) {
                deletionVectorsClosed = true;
                deletionVectors.close();
            }
            return List.of(deletionVectors.result());
        }
        return positionDeletes.results();
    }

    /**
     * Closes the delete writers whatever happens; their files, finished or not, are deleted by the
     * task writer, which recorded them when they were opened.
     */
    void closeForAbort() {
        try {
            results();
        } catch (IOException | RuntimeException e) {
            // the task writer deletes every file it opened
        }
    }
}
