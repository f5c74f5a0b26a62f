package dev.icebergflink.table.dml;

import dev.icebergflink.TableLoader;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.IsolationLevel;
import org.apache.iceberg.expressions.Expression;

/**
 * Everything the runtime of one row-level statement needs, resolved while planning: the table, the
 * operation, the snapshot it read, the conflict detection filter and isolation level of its commit,
 * the id that marks its commit, and where the file location and position of a row are.
 *
 * <p>It exists so that writers and the committer read settled values and never the options or the
 * planner's objects; it is immutable and travels inside the operators (never in state).
 *
 * @param tableName the table, for messages
 * @param loader the loader of the Iceberg table
 * @param operation {@code DELETE} or {@code UPDATE}
 * @param formatVersion the table's format version (1: rewrite files, 2: position deletes, 3:
 *     deletion vectors)
 * @param scanSnapshotId the snapshot the statement read, or {@code null} for an empty table
 * @param conflictFilter the rows the statement may have read, for Iceberg's conflict detection
 * @param isolation the isolation level of the commit (serializable also fails on concurrently added
 *     matching rows)
 * @param statementId the id written into the snapshot summary so that a re-run committer recognises
 *     its own commit
 * @param dataType the table's physical columns, the first fields of an {@code UPDATE}'s rows;
 *     {@code null} for {@code DELETE}
 * @param fileIndex the field of a row holding its data file location ({@code _file})
 * @param posIndex the field of a row holding its position in that file ({@code _pos})
 */
@Internal
public record DmlPlan(
        String tableName,
        TableLoader loader,
        DmlOperation operation,
        int formatVersion,
        Long scanSnapshotId,
        Expression conflictFilter,
        IsolationLevel isolation,
        String statementId,
        RowType dataType,
        int fileIndex,
        int posIndex)
        implements Serializable {

    /** The snapshot summary key holding {@link #statementId}. */
    public static final String STATEMENT_ID_PROPERTY = "flink.dml-statement-id";

    /**
     * A loader of its own for an operator of the statement, opened; the operator closes it. (The
     * plan's loader travels in every operator; each subtask needs an open copy.)
     */
    public TableLoader openLoader() {
        TableLoader copy = loader.clone();
        copy.open();
        return copy;
    }

    /** Whether the statement writes new rows (an {@code UPDATE}). */
    public boolean writesRows() {
        return operation == DmlOperation.UPDATE;
    }
}
