package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.io.CloseableIterator;

/**
 * Split-level helpers for the source's reader tests; tables, files and file-task reads come from
 * core's {@code TaskTestTables}.
 */
final class ReaderTestTables {

    private ReaderTestTables() {}

    /** One split holding every given file task, in the given order. */
    static IcebergSourceSplit oneSplit(List<FileScanTask> tasks) {
        return IcebergSourceSplit.fromCombinedScanTask(new BaseCombinedScanTask(tasks));
    }

    /** Every record of every batch of the split, with positions, through the reader function. */
    static <T> List<RecordAndPosition<T>> readSplit(
            IcebergReaderFunction<T> function, IcebergSourceSplit split) {
        List<RecordAndPosition<T>> out = new ArrayList<>();
        try (CloseableIterator<RecordBatch<T>> batches = function.read(split)) {
            while (batches.hasNext()) {
                drain(batches.next(), out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Copies the records of a batch (the batch reuses its holder). */
    static <T> void drain(RecordBatch<T> batch, List<RecordAndPosition<T>> out) {
        while (batch.nextSplit() != null) {
            RecordAndPosition<T> next;
            while ((next = batch.nextRecordFromSplit()) != null) {
                out.add(
                        new RecordAndPosition<>(
                                next.record(), next.fileOffset(), next.recordOffset()));
            }
        }
    }
}
