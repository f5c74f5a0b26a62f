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
 * branch.
 *
 * @param table the table
 * @param branch the branch
 * @param result the data and delete files
 */
@Internal
public record DynamicWriteResult(TableIdentifier table, String branch, WriteResult result) {

    public DynamicWriteResult {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(branch, "branch");
        Objects.requireNonNull(result, "result");
    }

    @Override
    public String toString() {
        return "DynamicWriteResult{"
                + table
                + "@"
                + branch
                + ", "
                + result.dataFiles().length
                + " data and "
                + result.deleteFiles().length
                + " delete files}";
    }
}
