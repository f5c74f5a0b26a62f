package dev.icebergflink.sink.dynamic;

import dev.icebergflink.sink.committer.IcebergCommittable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What the dynamic sink commits for one checkpoint into one branch of one table: the {@link
 * IcebergCommittable} the single-table sink commits, with the table and branch it belongs to.
 *
 * <p>It exists so that the committer of a sink for many tables keeps the single-table sink's
 * exactly-once rules per table: each (table, branch) gets its own committer with the same snapshot
 * summary keys and restore checks.
 */
@Internal
public final class DynamicCommittable {

    private final TableIdentifier table;
    private final String branch;
    private final IcebergCommittable committable;

    /**
     * @param table the table
     * @param branch the branch, or {@code null} for the main branch
     * @param committable the checkpoint's manifests for that table and branch
     */
    public DynamicCommittable(
            TableIdentifier table, String branch, IcebergCommittable committable) {
        this.table = Objects.requireNonNull(table, "table");
        this.branch = branch;
        this.committable = Objects.requireNonNull(committable, "committable");
    }

    public TableIdentifier table() {
        return table;
    }

    /** The branch, or {@code null} for the main branch. */
    public String branch() {
        return branch;
    }

    public IcebergCommittable committable() {
        return committable;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DynamicCommittable that
                && table.equals(that.table)
                && Objects.equals(branch, that.branch)
                && committable.equals(that.committable);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, branch, committable);
    }

    @Override
    public String toString() {
        return "DynamicCommittable{"
                + table
                + (branch == null ? "" : "@" + branch)
                + ", checkpoint "
                + committable.checkpointId()
                + "}";
    }
}
