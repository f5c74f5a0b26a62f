package dev.icebergflink.sink.dynamic;

import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A record of the dynamic sink once its table is ready for it: the row in the form of one schema of
 * the table, and everything the writers need to know about it, by id instead of by value.
 *
 * <p>It exists because what travels from the resolution to the writers must be small: the schema,
 * spec and equality fields of a {@link DynamicRecord} are resolved once against the table and then
 * named by the table's schema id, spec id and field ids. Writers look them up in their own copy of
 * the table's metadata.
 */
@Internal
public final class ResolvedRecord {

    private final TableIdentifier table;
    private final String branch;
    private final int schemaId;
    private final int specId;
    private final RowData row;
    private final boolean upsert;
    private final int[] equalityFieldIds;
    private final int writeParallelism;
    private final int distributionKey;
    private final transient RowType rowType;

    /**
     * @param table the table
     * @param branch the branch (never null: the main branch by name)
     * @param schemaId the id of the table schema {@code row} follows
     * @param specId the id of the table spec the row is partitioned by
     * @param row the row, in the form of schema {@code schemaId}
     * @param upsert whether the row replaces the row of its key
     * @param equalityFieldIds the key's field ids (sorted); empty for plain appends
     * @param writeParallelism how many writers the table's rows are spread over, at least 1
     * @param distributionKey which of those writers the row goes to (modulo their number)
     * @param rowType the type of {@code row}, where known (after deserialization the row is a
     *     binary row and the type is null)
     */
    ResolvedRecord(
            TableIdentifier table,
            String branch,
            int schemaId,
            int specId,
            RowData row,
            boolean upsert,
            int[] equalityFieldIds,
            int writeParallelism,
            int distributionKey,
            RowType rowType) {
        this.table = Objects.requireNonNull(table, "table");
        this.branch = Objects.requireNonNull(branch, "branch");
        this.schemaId = schemaId;
        this.specId = specId;
        this.row = Objects.requireNonNull(row, "row");
        this.upsert = upsert;
        this.equalityFieldIds = equalityFieldIds;
        this.writeParallelism = writeParallelism;
        this.distributionKey = distributionKey;
        this.rowType = rowType;
    }

    public TableIdentifier table() {
        return table;
    }

    public String branch() {
        return branch;
    }

    public int schemaId() {
        return schemaId;
    }

    public int specId() {
        return specId;
    }

    public RowData row() {
        return row;
    }

    public boolean upsert() {
        return upsert;
    }

    /** The key's field ids, sorted; empty when the row is not written by key. */
    public int[] equalityFieldIds() {
        return equalityFieldIds;
    }

    public int writeParallelism() {
        return writeParallelism;
    }

    public int distributionKey() {
        return distributionKey;
    }

    /** The row's type, or null when the row came over the network (it is then binary). */
    RowType rowType() {
        return rowType;
    }

    /** This record with another row object of the same content (a copy). */
    ResolvedRecord withRow(RowData copy) {
        return new ResolvedRecord(
                table,
                branch,
                schemaId,
                specId,
                copy,
                upsert,
                equalityFieldIds,
                writeParallelism,
                distributionKey,
                rowType);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ResolvedRecord that
                && table.equals(that.table)
                && branch.equals(that.branch)
                && schemaId == that.schemaId
                && specId == that.specId
                && upsert == that.upsert
                && Arrays.equals(equalityFieldIds, that.equalityFieldIds)
                && writeParallelism == that.writeParallelism
                && distributionKey == that.distributionKey
                && row.equals(that.row);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, branch, schemaId, specId, distributionKey);
    }

    @Override
    public String toString() {
        return "ResolvedRecord{"
                + table
                + "@"
                + branch
                + ", schema "
                + schemaId
                + ", spec "
                + specId
                + (upsert ? ", upsert by " + Arrays.toString(equalityFieldIds) : "")
                + ", "
                + row.getRowKind().shortString()
                + "}";
    }
}
