package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;

/**
 * Reads one split as a sequence of {@link RecordBatch}es: its file tasks in order, starting at the
 * split's position (file task {@code fileOffset}, after its first {@code recordOffset} records),
 * and stopping early when the reader's limit is used up.
 *
 * <p>Only one file task is open at a time; a batch may span file tasks, and each record carries the
 * position after it. The change tasks of a changelog split are read through {@link
 * ChangelogReading}, which pairs the split's updates once, when its first change task opens (also
 * after a restore in the middle of the split). Requested metadata columns are appended to each row
 * before conversion ({@link MetadataAppender}).
 *
 * @param <T> the emitted record type
 */
final class SplitBatchIterator<T> implements CloseableIterator<RecordBatch<T>> {

    private final IcebergSourceSplit split;
    private final List<FileScanTask> fileTasks;
    private final RowDataFileTaskReader fileReader;
    private final RowDataConverter<T> converter;
    private final int batchSize;
    private final RecordLimiter limiter;
    private final FileTaskListener listener;
    private final ChangelogReading changelog;
    private final MetadataAppender metadata;

    private int fileOffset;
    private long recordOffset;
    private long toSkip;
    private CloseableIterable<RowData> openTask;
    private CloseableIterator<RowData> rows;
    private ChangelogReading.Pairing pairing;
    private RowData taskMetadata;

    SplitBatchIterator(
            IcebergSourceSplit split,
            RowDataFileTaskReader fileReader,
            RowDataConverter<T> converter,
            int batchSize,
            RecordLimiter limiter,
            FileTaskListener listener,
            ChangelogReading changelog,
            MetadataAppender metadata) {
        this.split = split;
        this.fileTasks = List.copyOf(split.task().files());
        this.fileReader = fileReader;
        this.converter = converter;
        this.batchSize = batchSize;
        this.limiter = limiter;
        this.listener = listener;
        this.changelog = changelog;
        this.metadata = metadata;
        this.fileOffset = split.fileOffset();
        this.toSkip = split.recordOffset();
        this.recordOffset = 0;
    }

    @Override
    public boolean hasNext() {
        if (limiter.reached()) {
            return false;
        }
        while (true) {
            if (rows == null) {
                if (fileOffset >= fileTasks.size()) {
                    return false;
                }
                openCurrentTask();
            }
            if (rows.hasNext()) {
                return true;
            }
            finishCurrentTask();
        }
    }

    @Override
    public RecordBatch<T> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("Split " + split.splitId() + " is fully read");
        }
        RecordBatch<T> batch = RecordBatch.forSplit(split.splitId(), batchSize);
        while (!batch.isFull() && hasNext()) {
            RowData row = rows.next();
            recordOffset++;
            limiter.consume();
            batch.add(
                    converter.convert(metadata.append(row, taskMetadata)),
                    fileOffset,
                    recordOffset);
        }
        return batch;
    }

    private void openCurrentTask() {
        FileScanTask task = fileTasks.get(fileOffset);
        taskMetadata = metadata.metadataOf(task);
        openTask = open(task);
        rows = openTask.iterator();
        recordOffset = 0;
        while (recordOffset < toSkip && rows.hasNext()) {
            rows.next();
            recordOffset++;
        }
        if (recordOffset < toSkip) {
            long found = recordOffset;
            closeCurrentTask();
            throw new IllegalStateException(
                    String.format(
                            "Cannot resume split %s at file task %d record %d: the file task (%s)"
                                    + " yields only %d records",
                            split.splitId(), fileOffset, toSkip, task.file().location(), found));
        }
        toSkip = 0;
    }

    /** A plain task as inserts; a change task with its row kinds (a changelog read). */
    private CloseableIterable<RowData> open(FileScanTask task) {
        if (!(task instanceof ChangeFileScanTask change)) {
            return fileReader.open(task);
        }
        if (changelog == null) {
            throw new IllegalStateException(
                    "Split "
                            + split.splitId()
                            + " holds the changes of snapshot "
                            + change.commitSnapshotId()
                            + " (state of a changelog read) but this read emits inserts only;"
                            + " restore it with 'changelog-mode' = 'all', or start the read"
                            + " without this state");
        }
        if (pairing == null) {
            pairing = changelog.pair(fileTasks);
        }
        return changelog.open(change, pairing);
    }

    private void finishCurrentTask() {
        closeCurrentTask();
        listener.fileTaskFinished(fileTasks.get(fileOffset));
        fileOffset++;
        recordOffset = 0;
    }

    private void closeCurrentTask() {
        try {
            if (openTask != null) {
                openTask.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot close file task " + fileOffset + " of split " + split.splitId(), e);
        } finally {
            openTask = null;
            rows = null;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            closeCurrentTask();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
