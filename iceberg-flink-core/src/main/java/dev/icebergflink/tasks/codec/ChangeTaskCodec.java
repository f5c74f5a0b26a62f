package dev.icebergflink.tasks.codec;

import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;

/**
 * The change part of {@link ChangeFileScanTask}s in serialized state, written after the tasks
 * themselves (by {@link FileScanTaskCodec}), so that a task list with changes is a task list
 * without them plus this part.
 *
 * <p>Layout of {@link #writeChanges}: one byte, 0 when no task is a change (nothing follows) and 1
 * when every task is one; then per task, in the tasks' order: the change type's code (byte), the
 * commit snapshot id (long), its commit time in epoch milliseconds (long), the count of added
 * delete files (int) and each in the sequenced form of {@link ContentFileCodec}. A list that mixes
 * changes and plain tasks is refused: one split holds the changes of one snapshot, or none.
 */
@Internal
public final class ChangeTaskCodec {

    private final TableMetadataLookup metadata;

    public ChangeTaskCodec(TableMetadataLookup metadata) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    /** Writes the change part of {@code tasks}. */
    public void writeChanges(List<FileScanTask> tasks, DataOutputView out) throws IOException {
        long changes = tasks.stream().filter(ChangeFileScanTask.class::isInstance).count();
        if (changes == 0) {
            out.writeByte(0);
            return;
        }
        if (changes != tasks.size()) {
            throw new IllegalArgumentException(
                    "A task list mixes "
                            + changes
                            + " change task(s) with "
                            + (tasks.size() - changes)
                            + " plain one(s)");
        }
        out.writeByte(1);
        for (FileScanTask task : tasks) {
            ChangeFileScanTask change = (ChangeFileScanTask) task;
            out.writeByte(change.type().code());
            out.writeLong(change.commitSnapshotId());
            out.writeLong(change.commitTimestampMillis());
            out.writeInt(change.addedDeletes().size());
            for (DeleteFile delete : change.addedDeletes()) {
                ContentFileCodec.writeSequenced(
                        delete, FileScanTaskCodec.specOf(delete, task, metadata), out);
            }
        }
    }

    /**
     * Reads the change part written for {@code tasks} and returns the tasks with their changes (the
     * same list when they had none).
     */
    public List<FileScanTask> readChanges(List<FileScanTask> tasks, DataInputView in)
            throws IOException {
        byte marker = in.readByte();
        if (marker == 0) {
            return tasks;
        }
        if (marker != 1) {
            throw new IOException("Corrupt serialized state: change marker " + marker);
        }
        List<FileScanTask> changes = new ArrayList<>(tasks.size());
        for (FileScanTask task : tasks) {
            ChangeType type;
            try {
                type = ChangeType.ofCode(in.readByte());
            } catch (IllegalArgumentException e) {
                throw new IOException("Corrupt serialized state: " + e.getMessage(), e);
            }
            long snapshotId = in.readLong();
            long committedAt = in.readLong();
            int count = in.readInt();
            if (count < 0) {
                throw new IOException(
                        "Corrupt serialized state: negative added delete file count " + count);
            }
            List<DeleteFile> added = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                added.add(ContentFileCodec.readSequencedDeleteFile(in, metadata));
            }
            changes.add(new ChangeFileScanTask(task, type, snapshotId, committedAt, added));
        }
        return changes;
    }
}
