package dev.icebergflink.table.dml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The data files of the snapshot a row-level statement read, by location, each with the delete
 * files that applied to it.
 *
 * <p>It exists because the rows of a statement carry only their file's location and position, while
 * a position delete must be written in the data file's partition spec and partition, a deletion
 * vector must be merged with the file's earlier one, and a format v1 rewrite needs the file itself.
 * Each writer plans the pinned snapshot once, limited to the statement's conflict filter (which
 * every row it receives satisfies, so every file it needs is planned).
 */
@Internal
final class TargetFiles {

    private final Map<String, FileScanTask> byLocation;

    private TargetFiles(Map<String, FileScanTask> byLocation) {
        this.byLocation = byLocation;
    }

    /** Plans {@code snapshotId} of {@code table}, keeping the files that may hold matching rows. */
    static TargetFiles plan(Table table, long snapshotId, Expression filter) {
        Map<String, FileScanTask> tasks = new HashMap<>();
        try (CloseableIterable<FileScanTask> planned =
                table.newScan()
                        .useSnapshot(snapshotId)
                        .filter(filter)
                        .ignoreResiduals()
                        .planFiles()) {
            for (FileScanTask task : planned) {
                tasks.put(task.file().location(), task);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TargetFiles(tasks);
    }

    /**
     * The file at {@code location} with its deletes.
     *
     * @throws IllegalStateException when the snapshot has no such data file
     */
    FileScanTask task(String location) {
        FileScanTask task = byLocation.get(location);
        if (task == null) {
            throw new IllegalStateException(
                    "Row of data file "
                            + location
                            + " which is not a file of the snapshot the statement read");
        }
        return task;
    }
}
