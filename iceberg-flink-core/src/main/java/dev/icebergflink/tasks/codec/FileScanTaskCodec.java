package dev.icebergflink.tasks.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;

/**
 * Iceberg {@link FileScanTask}s in serialized state: the file ranges of one planned unit of work (a
 * source split, a work unit of a rewrite), each with its delete files and residual filter.
 *
 * <p>It exists so that everything that ships planned file tasks between operators or keeps them in
 * state writes them one way. Tasks stay small: the schema and the partition specs are written as
 * ids and looked up in a {@link TableMetadataLookup} on reading.
 *
 * <p>Layout of {@link #writeTasks}: the schema id of the tasks (int; 0 when there are none), the
 * task count (int), then per task: the data file and its delete-file count (int) and delete files,
 * each in the sequenced form of {@link ContentFileCodec}; the residual filter as length-prefixed
 * UTF-8 JSON of {@link ExpressionParser}; start (long) and length (long).
 */
@Internal
public final class FileScanTaskCodec {

    private final TableMetadataLookup metadata;

    public FileScanTaskCodec(TableMetadataLookup metadata) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    /**
     * Writes the tasks of one unit of work. All tasks share the schema of the first one (the tasks
     * of one scan do).
     */
    public void writeTasks(Collection<FileScanTask> tasks, DataOutputView out) throws IOException {
        int schemaId = tasks.isEmpty() ? 0 : tasks.iterator().next().schema().schemaId();
        out.writeInt(schemaId);
        out.writeInt(tasks.size());
        for (FileScanTask task : tasks) {
            writeTask(task, out);
        }
    }

    /** Reads tasks written by {@link #writeTasks}, in their order. */
    public List<FileScanTask> readTasks(DataInputView in) throws IOException {
        int schemaId = in.readInt();
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt serialized state: negative file task count " + count);
        }
        List<FileScanTask> tasks = new ArrayList<>(count);
        Schema schema = count == 0 ? null : metadata.schema(schemaId);
        for (int i = 0; i < count; i++) {
            tasks.add(readTask(schema, in));
        }
        return tasks;
    }

    private void writeTask(FileScanTask task, DataOutputView out) throws IOException {
        ContentFileCodec.writeSequenced(task.file(), task.spec(), out);
        List<DeleteFile> deletes = task.deletes();
        out.writeInt(deletes.size());
        for (DeleteFile delete : deletes) {
            ContentFileCodec.writeSequenced(delete, specOf(delete, task), out);
        }
        LengthPrefixedStrings.write(ExpressionParser.toJson(task.residual()), out);
        out.writeLong(task.start());
        out.writeLong(task.length());
    }

    private FileScanTask readTask(Schema schema, DataInputView in) throws IOException {
        DataFile dataFile = ContentFileCodec.readSequencedDataFile(in, metadata);
        int deleteCount = in.readInt();
        if (deleteCount < 0) {
            throw new IOException(
                    "Corrupt serialized state: negative delete file count " + deleteCount);
        }
        List<DeleteFile> deletes = new ArrayList<>(deleteCount);
        for (int d = 0; d < deleteCount; d++) {
            deletes.add(ContentFileCodec.readSequencedDeleteFile(in, metadata));
        }
        Expression residual = ExpressionParser.fromJson(LengthPrefixedStrings.read(in));
        long start = in.readLong();
        long length = in.readLong();
        PartitionSpec spec = metadata.spec(dataFile.specId());
        return new RestoredFileScanTask(dataFile, deletes, schema, spec, residual, start, length);
    }

    /**
     * The spec of a delete file: the task's when they share it; a delete file of an older spec
     * takes that spec from the lookup (its JSON needs the spec only for the partition tuple, whose
     * values are written by position from the file itself).
     */
    private PartitionSpec specOf(DeleteFile delete, FileScanTask task) {
        return specOf(delete, task, metadata);
    }

    /** {@link #specOf(DeleteFile, FileScanTask)} with a given lookup, for the sibling codecs. */
    static PartitionSpec specOf(
            DeleteFile delete, FileScanTask task, TableMetadataLookup metadata) {
        if (delete.specId() == task.spec().specId()) {
            return task.spec();
        }
        return metadata.spec(delete.specId());
    }
}
