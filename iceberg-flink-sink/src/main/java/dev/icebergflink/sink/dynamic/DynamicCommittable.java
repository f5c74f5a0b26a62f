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
 * summary keys and restore checks. A checkpoint in which a table got a second writer by key (its
 * schema or spec changed) has one committable per generation; generation g > 0 has an owner of its
 * own (the operator id with {@code .g<g>}), so that each generation's progress is recorded and
 * checked on its own, and they are committed in order of checkpoint, then generation.
 */
@Internal
public final class DynamicCommittable {

    private final TableIdentifier table;
    private final String branch;
    private final int generation;
    private final IcebergCommittable committable;

    /**
     * @param table the table
     * @param branch the branch, or {@code null} for the main branch
     * @param generation the generation of the files within the checkpoint (0 for most)
     * @param committable the checkpoint's manifests for that table, branch and generation
     */
    public DynamicCommittable(
            TableIdentifier table, String branch, int generation, IcebergCommittable committable) {
        this.table = Objects.requireNonNull(table, "table");
        this.branch = branch;
        this.generation = generation;
        this.committable = Objects.requireNonNull(committable, "committable");
    }

    /** A committable of generation 0. */
    public DynamicCommittable(
            TableIdentifier table, String branch, IcebergCommittable committable) {
        this(table, branch, 0, committable);
    }

    public TableIdentifier table() {
        return table;
    }

    /** The branch, or {@code null} for the main branch. */
    public String branch() {
        return branch;
    }

    /** The generation of the files within the checkpoint; later ones commit after earlier ones. */
    public int generation() {
        return generation;
    }

    public IcebergCommittable committable() {
        return committable;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DynamicCommittable that
                && table.equals(that.table)
                && Objects.equals(branch, that.branch)
                && generation == that.generation
                && committable.equals(that.committable);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, branch, generation, committable);
    }

    @Override
    public String toString() {
        return "DynamicCommittable{"
                + table
                + (branch == null ? "" : "@" + branch)
                + ", checkpoint "
                + committable.checkpointId()
                + (generation == 0 ? "" : " generation " + generation)
                + "}";
    }
}
