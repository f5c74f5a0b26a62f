package dev.icebergflink.table.dml;

import dev.icebergflink.data.OpenedFiles;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.FanoutPositionOnlyDeleteWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The writes of one writer subtask of a row-level statement: for every row it receives (the
 * location and position of a matching row, and for {@code UPDATE} the changed row), the deletion of
 * the old row and the insertion of the new one.
 *
 * <p>How a row is deleted depends on the table's format version: format v2 writes position delete
 * files (Iceberg's fan-out position delete writer, in the data file's spec and partition); format
 * v3 writes deletion vectors (Iceberg's DV writer, at most one per data file: an earlier vector of
 * the file is merged into the new one and reported as removed); format v1, which has no delete
 * files, rewrites every affected data file without its deleted positions. Changed rows are written
 * as new data files in the table's current spec. Rows are distributed by data file location, so
 * this writer sees every deleted position of the files it receives.
 *
 * <p>Every file it opens is recorded ({@link OpenedFiles}) and deleted again when it is aborted.
 */
@Internal
final class RowLevelFileWriter {

    private final DmlPlan plan;
    private final Table table;
    private final OpenedFiles opened = new OpenedFiles();
    private final FileWriterFactory<RowData> writers;
    private final OutputFileFactory dataFiles;
    private final OutputFileFactory deleteFiles;
    private final Set<String> referenced = new LinkedHashSet<>();
    private final PositionDelete<RowData> delete = PositionDelete.create();

    private TargetFiles targets;
    private FanoutPositionOnlyDeleteWriter<RowData> positionDeletes;
    private BaseDVFileWriter deletionVectors;
    private final Map<String, Set<Long>> rewrites = new HashMap<>();
    private FanoutDataWriter<RowData> newRows;
    private PartitionKey partitionKey;
    private RowDataStructLike rowView;

    /**
     * @param plan the statement
     * @param table the table, loaded on the writer's task
     * @param subtask the writer's subtask index (part of file names)
     * @param attempt the writer's attempt number (part of file names)
     */
    RowLevelFileWriter(DmlPlan plan, Table table, int subtask, long attempt) {
        this.plan = plan;
        this.table = table;
        Map<String, String> properties = table.properties();
        FileFormat dataFormat =
                FileFormat.fromString(
                        properties.getOrDefault(
                                TableProperties.DEFAULT_FILE_FORMAT,
                                TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
        FileFormat deleteFormat =
                plan.formatVersion() >= 3
                        ? FileFormat.PUFFIN
                        : FileFormat.fromString(
                                properties.getOrDefault(
                                        TableProperties.DELETE_DEFAULT_FILE_FORMAT,
                                        dataFormat.name()));
        this.writers = opened.recording(RowDataFileWriterFactory.builderFor(table).build());
        this.dataFiles =
                OutputFileFactory.builderFor(table, subtask, attempt)
                        .format(dataFormat)
                        .operationId(plan.statementId() + "-data")
                        .build();
        this.deleteFiles =
                OutputFileFactory.builderFor(table, subtask, attempt)
                        .format(deleteFormat)
                        .operationId(plan.statementId() + "-deletes")
                        .build();
    }

    /** Deletes the row at the row's {@code _file} and {@code _pos}, and re-inserts an update. */
    void write(RowData row) {
        String location = row.getString(plan.fileIndex()).toString();
        long position = row.getLong(plan.posIndex());
        FileScanTask task = targets().task(location);
        referenced.add(location);
        PartitionSpec spec = task.spec();
        StructLike partition = spec.isUnpartitioned() ? null : task.file().partition();
        if (plan.formatVersion() == 1) {
            rewrites.computeIfAbsent(location, ignored -> new HashSet<>()).add(position);
        } else if (plan.formatVersion() == 2) {
            positionDeletes().write(delete.set(location, position), spec, partition);
        } else {
            deletionVectors().delete(location, position, spec, partition);
        }
        if (plan.writesRows()) {
            writeRow(row);
        }
    }

    /** Closes every writer and returns what they wrote; deletes everything when it fails. */
    DmlWriteResult complete() throws IOException {
        try {
            List<DataFile> addedData = new ArrayList<>();
            List<DeleteFile> addedDeletes = new ArrayList<>();
            List<DataFile> removedData = new ArrayList<>();
            List<DeleteFile> removedDeletes = new ArrayList<>();
            if (positionDeletes != null) {
                positionDeletes.close();
                addedDeletes.addAll(positionDeletes.result().deleteFiles());
            }
            if (deletionVectors != null) {
                deletionVectors.close();
                DeleteWriteResult result = deletionVectors.result();
                addedDeletes.addAll(result.deleteFiles());
                removedDeletes.addAll(result.rewrittenDeleteFiles());
            }
            for (Map.Entry<String, Set<Long>> rewrite : rewrites.entrySet()) {
                FileScanTask task = targets().task(rewrite.getKey());
                removedData.add(task.file());
                DataFile rewritten = rewrite(task, rewrite.getValue());
                if (rewritten != null) {
                    addedData.add(rewritten);
                }
            }
            if (newRows != null) {
                newRows.close();
                DataWriteResult result = newRows.result();
                addedData.addAll(result.dataFiles());
            }
            return new DmlWriteResult(
                    addedData, addedDeletes, removedData, removedDeletes, referenced);
        } catch (IOException | RuntimeException e) {
            abort(e);
            throw e;
        }
    }

    /** Closes the writers quietly and deletes every file this writer opened. */
    void abort(Throwable failure) {
        for (AutoCloseable writer :
                new AutoCloseable[] {positionDeletes, deletionVectors, newRows}) {
            if (writer != null) {
                try {
                    writer.close();
                } catch (Exception e) {
                    if (failure != null) {
                        failure.addSuppressed(e);
                    }
                }
            }
        }
        opened.deleteAll(table.io(), failure);
    }

    private TargetFiles targets() {
        if (targets == null) {
            if (plan.scanSnapshotId() == null) {
                throw new IllegalStateException(
                        "Table " + plan.tableName() + " had no snapshot, but rows were read");
            }
            targets = TargetFiles.plan(table, plan.scanSnapshotId(), plan.conflictFilter());
        }
        return targets;
    }

    private FanoutPositionOnlyDeleteWriter<RowData> positionDeletes() {
        if (positionDeletes == null) {
            positionDeletes =
                    new FanoutPositionOnlyDeleteWriter<>(
                            writers,
                            deleteFiles,
                            table.io(),
                            PropertyUtil.propertyAsLong(
                                    table.properties(),
                                    TableProperties.DELETE_TARGET_FILE_SIZE_BYTES,
                                    TableProperties.DELETE_TARGET_FILE_SIZE_BYTES_DEFAULT),
                            DeleteGranularity.FILE);
        }
        return positionDeletes;
    }

    private BaseDVFileWriter deletionVectors() {
        if (deletionVectors == null) {
            BaseDeleteLoader loader = new BaseDeleteLoader(file -> table.io().newInputFile(file));
            deletionVectors =
                    new BaseDVFileWriter(
                            () -> opened.newOutputFile(deleteFiles),
                            location -> previousDeletionVector(loader, location));
        }
        return deletionVectors;
    }

    /** The file's current deletion vector, to merge into the new one; null when it has none. */
    private PositionDeleteIndex previousDeletionVector(BaseDeleteLoader loader, String location) {
        List<DeleteFile> vectors =
                targets().task(location).deletes().stream().filter(ContentFileUtil::isDV).toList();
        return vectors.isEmpty() ? null : loader.loadPositionDeletes(vectors, location);
    }

    private void writeRow(RowData row) {
        PartitionSpec spec = table.spec();
        if (newRows == null) {
            newRows =
                    new FanoutDataWriter<>(
                            writers,
                            dataFiles,
                            table.io(),
                            PropertyUtil.propertyAsLong(
                                    table.properties(),
                                    TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                                    TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT));
            partitionKey = new PartitionKey(spec, table.schema());
            rowView = new RowDataStructLike(table.schema().asStruct(), plan.dataType());
        }
        if (spec.isUnpartitioned()) {
            newRows.write(row, spec, null);
        } else {
            partitionKey.partition(rowView.wrap(row));
            newRows.write(row, spec, partitionKey);
        }
    }

    /**
     * Writes the rows of {@code task}'s file that are not at {@code deleted} positions into a new
     * file of the same spec and partition; null when no row remains.
     */
    private DataFile rewrite(FileScanTask task, Set<Long> deleted) throws IOException {
        Schema schema = table.schema();
        Schema withPosition = TypeUtil.join(schema, new Schema(MetadataColumns.ROW_POSITION));
        int positionField = schema.columns().size();
        String mapping = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        RowDataFileTaskReader reader =
                new RowDataFileTaskReader(
                        schema,
                        withPosition,
                        mapping == null ? null : NameMappingParser.fromJson(mapping),
                        true,
                        table.io(),
                        table.encryption());
        PartitionSpec spec = task.spec();
        StructLike partition = spec.isUnpartitioned() ? null : task.file().partition();
        DataWriter<RowData> writer =
                writers.newDataWriter(dataFiles.newOutputFile(spec, partition), spec, partition);
        long kept = 0;
        try (DataWriter<RowData> closing = writer;
                CloseableIterable<RowData> rows = reader.open(task)) {
            for (RowData row : rows) {
                if (!deleted.contains(row.getLong(positionField))) {
                    closing.write(row);
                    kept++;
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        DataFile file = writer.toDataFile();
        if (kept == 0) {
            table.io().deleteFile(file.location());
            return null;
        }
        return file;
    }
}
