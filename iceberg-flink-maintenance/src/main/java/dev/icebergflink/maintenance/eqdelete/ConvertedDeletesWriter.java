package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.data.OpenedFiles;
import dev.icebergflink.data.RowDataFileWriterFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.SortingPositionOnlyDeleteWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Writes the positions a unit's equality deletes delete as the table's kind of position deletes:
 * position delete files on format v2 (Iceberg's sorting writer), deletion vectors on format v3
 * (Iceberg's DV writer, one Puffin file per unit), each in the data file's own spec and partition.
 *
 * <p>Every new delete refers to ONE data file, whatever the table's {@code
 * write.delete.granularity}: a file-scoped position delete file is opened only by readers of its
 * data file (a partition-scoped one would apply, by sequence number, to every older data file of
 * the partition and be read for each), and it carries exactly the sequence number of the equality
 * deletes of its data file.
 *
 * <p>Format v3 allows at most one deletion vector per data file: a data file that already has one
 * gets a new vector holding the old positions and the new ones, and the old vector (with any
 * file-scoped position delete file of that data file) is reported as replaced.
 *
 * <p>Each new file is given a data sequence number for the commit: the highest sequence number of
 * the equality deletes whose rows it deletes (and of the vector it replaces), which is above the
 * sequence number of every data file it refers to, so it applies to them; position deletes apply
 * only to the data files they name, so no other file is affected. Every file it opens is recorded,
 * so {@link #abort} removes them all.
 */
@Internal
public final class ConvertedDeletesWriter {

    private final Table table;
    private final int subtask;
    private final int attempt;
    private final OpenedFiles opened = new OpenedFiles();

    /**
     * @param table the table written
     * @param subtask the writing subtask (part of the new files' names)
     * @param attempt the writing attempt (part of the new files' names)
     */
    public ConvertedDeletesWriter(Table table, int subtask, int attempt) {
        this.table = table;
        this.subtask = subtask;
        this.attempt = attempt;
    }

    /**
     * Writes the deletes of {@code files}, which share one spec and partition.
     *
     * @throws IOException when a file cannot be written; the caller then calls {@link #abort}
     */
    public ConvertedDeletes write(List<FileDeletes> files) throws IOException {
        if (files.isEmpty()) {
            return ConvertedDeletes.NONE;
        }
        List<String> referenced = new ArrayList<>();
        long rows = 0L;
        for (FileDeletes file : files) {
            referenced.add(file.location());
            rows += file.positions().length;
        }
        List<ConvertedDeletes.AddedDelete> added = new ArrayList<>();
        List<DeleteFile> replaced = new ArrayList<>();
        if (TableUtil.formatVersion(table) >= 3) {
            writeDeletionVectors(files, added, replaced);
        } else {
            writePositionDeletes(files, added);
        }
        return new ConvertedDeletes(added, replaced, referenced, rows);
    }

    /**
     * Deletes every file this writer opened, best effort; failures are added to {@code failure}.
     */
    public void abort(Throwable failure) {
        opened.deleteAll(table.io(), failure);
    }

    private void writeDeletionVectors(
            List<FileDeletes> files,
            List<ConvertedDeletes.AddedDelete> added,
            List<DeleteFile> replaced)
            throws IOException {
        OutputFileFactory puffins = outputFiles(FileFormat.PUFFIN);
        Map<String, FileDeletes> byLocation = new HashMap<>();
        files.forEach(file -> byLocation.put(file.location(), file));
        BaseDVFileWriter writer =
                new BaseDVFileWriter(
                        () -> opened.newOutputFile(puffins),
                        location -> {
                            PositionDeleteIndex existing = byLocation.get(location).existing();
                            return existing.isEmpty() ? null : existing;
                        });
        try (writer) {
            for (FileDeletes file : files) {
                FileScanTask task = file.task();
                for (long position : file.positions()) {
                    writer.delete(file.location(), position, task.spec(), task.file().partition());
                }
            }
        }
        DeleteWriteResult result = writer.result();
        Map<String, Long> replacedSequenceNumbers = new HashMap<>();
        for (DeleteFile old : result.rewrittenDeleteFiles()) {
            replaced.add(old);
            String location = ContentFileUtil.referencedDataFileLocation(old);
            Long sequenceNumber = old.dataSequenceNumber();
            if (location != null && sequenceNumber != null) {
                replacedSequenceNumbers.merge(location, sequenceNumber, Math::max);
            }
        }
        for (DeleteFile vector : result.deleteFiles()) {
            String location = vector.referencedDataFile();
            long sequenceNumber =
                    Math.max(
                            byLocation.get(location).sequenceNumber(),
                            replacedSequenceNumbers.getOrDefault(location, Long.MIN_VALUE));
            added.add(new ConvertedDeletes.AddedDelete(vector, sequenceNumber));
        }
    }

    private void writePositionDeletes(
            List<FileDeletes> files, List<ConvertedDeletes.AddedDelete> added) throws IOException {
        FileFormat format = deleteFileFormat();
        OutputFileFactory outputs = outputFiles(format);
        FileWriterFactory<RowData> writers =
                opened.recording(
                        RowDataFileWriterFactory.builderFor(table)
                                .deleteFileFormat(format)
                                .build());
        FileScanTask first = files.get(0).task();
        PartitionSpec spec = first.spec();
        StructLike partition = first.file().partition();
        SortingPositionOnlyDeleteWriter<RowData> writer =
                new SortingPositionOnlyDeleteWriter<>(
                        () ->
                                writers.newPositionDeleteWriter(
                                        outputs.newOutputFile(spec, partition), spec, partition),
                        DeleteGranularity.FILE);
        Map<String, Long> sequenceNumbers = new HashMap<>();
        long highest = Long.MIN_VALUE;
        PositionDelete<RowData> delete = PositionDelete.create();
        try (writer) {
            for (FileDeletes file : files) {
                sequenceNumbers.put(file.location(), file.sequenceNumber());
                highest = Math.max(highest, file.sequenceNumber());
                for (long position : file.positions()) {
                    writer.write(delete.set(file.location(), position));
                }
            }
        }
        for (DeleteFile written : writer.result().deleteFiles()) {
            String only = ContentFileUtil.referencedDataFileLocation(written);
            long sequenceNumber = only == null ? highest : sequenceNumbers.get(only);
            added.add(new ConvertedDeletes.AddedDelete(written, sequenceNumber));
        }
    }

    private OutputFileFactory outputFiles(FileFormat format) {
        return OutputFileFactory.builderFor(table, subtask, attempt)
                .format(format)
                .operationId(UUID.randomUUID().toString())
                .suffix("eqdel")
                .build();
    }

    private FileFormat deleteFileFormat() {
        Map<String, String> properties = table.properties();
        String dataFormat =
                properties.getOrDefault(
                        TableProperties.DEFAULT_FILE_FORMAT,
                        TableProperties.DEFAULT_FILE_FORMAT_DEFAULT);
        return FileFormat.fromString(
                properties.getOrDefault(TableProperties.DELETE_DEFAULT_FILE_FORMAT, dataFormat));
    }
}
