package dev.icebergflink.table.dml;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.source.abilities.SupportsRowLevelModificationScan.RowLevelModificationType;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * What the scan of a row-level {@code DELETE} or {@code UPDATE} tells the statement's sink: the
 * snapshot the statement reads (pinned when the statement is planned) and the filters the scan
 * pushed down.
 *
 * <p>It exists because the sink validates its one commit against every commit made after exactly
 * that snapshot, and limits the validation to the rows the statement may have read: the conjunction
 * of the pushed filters, which every matching row satisfies (Flink evaluates the full {@code WHERE}
 * clause on top). While no filter is known the validation covers the whole table: stricter, never
 * wrong.
 *
 * <p>The planner hands the same instance from the source to the sink; the source records its pushed
 * filters here when the optimizer pushes them, which happens after the sink received the context,
 * so the sink reads them when it builds its runtime.
 */
@Internal
public final class RowLevelScanContext implements RowLevelModificationScanContext, Serializable {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final RowLevelModificationType type;
    private final Long snapshotId;
    private volatile List<Expression> filters = List.of();

    private RowLevelScanContext(String tableName, RowLevelModificationType type, Long snapshotId) {
        this.tableName = tableName;
        this.type = type;
        this.snapshotId = snapshotId;
    }

    /**
     * The context of a statement that reads {@code table} as loaded while planning; a previous
     * context of the same statement (the table read twice, e.g. in a subquery) keeps its snapshot,
     * so that every read of the statement sees the same one.
     */
    public static RowLevelScanContext pin(
            String tableName,
            Table table,
            RowLevelModificationType type,
            RowLevelModificationScanContext previous) {
        if (previous instanceof RowLevelScanContext earlier
                && earlier.tableName.equals(tableName)) {
            return earlier;
        }
        Snapshot current = table.currentSnapshot();
        return new RowLevelScanContext(
                tableName, type, current == null ? null : current.snapshotId());
    }

    /** The table the statement reads, for messages. */
    public String tableName() {
        return tableName;
    }

    /** {@code DELETE} or {@code UPDATE}. */
    public RowLevelModificationType type() {
        return type;
    }

    /** The snapshot the statement reads, or {@code null} when the table had none (empty). */
    public Long snapshotId() {
        return snapshotId;
    }

    /** Records the Iceberg filters the scan pushed down (replacing earlier ones). */
    public void useFilters(List<Expression> pushed) {
        this.filters = List.copyOf(pushed);
    }

    /**
     * The filter every row the statement reads satisfies: the conjunction of the pushed filters, or
     * {@code alwaysTrue()} when none was pushed.
     */
    public Expression conflictDetectionFilter() {
        Expression result = Expressions.alwaysTrue();
        for (Expression filter : filters) {
            result = Expressions.and(result, filter);
        }
        return result;
    }
}
