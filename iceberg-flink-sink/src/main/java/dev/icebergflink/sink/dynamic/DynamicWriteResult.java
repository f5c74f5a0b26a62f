package dev.icebergflink.sink.dynamic;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;

/**
 * The files one writer subtask of the dynamic sink wrote for one table and branch in one
 * checkpoint.
 *
 * <p>It exists because a dynamic writer writes many tables: the aggregation needs to know which
 * table and branch each {@link WriteResult} belongs to, to make one committable per table and
 * branch, and in which generation the files were written: a table whose schema or spec changes
 * while rows are written into it by key gets a new writer in the middle of the checkpoint, and its
 * files must be committed after the earlier writer's, so that its equality deletes apply to them.
 *
 * @param table the table
 * @param branch the branch
 * @param generation 0, or the number of writers by key that the table and branch had before in this
 *     checkpoint of this writer subtask
 * @param result the data and delete files
 */
@Internal
public record DynamicWriteResult(
        TableIdentifier table, String branch, int generation, WriteResult result) {

    public DynamicWriteResult {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(branch, "branch");
        Objects.requireNonNull(result, "result");
        if (generation < 0) {
            throw new IllegalArgumentException("generation must not be negative: " + generation);
        }
    }

    /** The files of generation 0. */
    public DynamicWriteResult(TableIdentifier table, String branch, WriteResult result) {
        this(table, branch, 0, result);
    }

    @Override
    public String toString() {
        return "DynamicWriteResult{"
                + table
                + "@"
                + branch
                + (generation == 0 ? "" : " generation " + generation)
                + ", "
                + result.dataFiles().length
                + " data and "
                + result.deleteFiles().length
                + " delete files}";
    }
}
