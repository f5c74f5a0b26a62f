package dev.icebergflink.sink.dynamic;

import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One row for {@code DynamicIcebergSink} together with where and how it is written: the table
 * (created when missing), the branch, the schema the row follows, the partition spec the table is
 * to have, how rows of the table are spread over the writers, and whether the row is an upsert by a
 * set of equality fields.
 *
 * <p>It exists because a sink for many tables with changing schemas cannot take that information
 * from its configuration: a {@link DynamicRecordGenerator} produces one per input record, and the
 * sink evolves each table to the schema and spec its records carry.
 *
 * <p>The row's fields follow {@link #schema()} by position; the row kind says whether it is an
 * insert, an update or a delete.
 */
@PublicEvolving
public class DynamicRecord {

    private TableIdentifier tableIdentifier;
    private String branch;
    private Schema schema;
    private RowData rowData;
    private PartitionSpec partitionSpec;
    private DistributionMode distributionMode;
    private int writeParallelism;
    private boolean upsertMode;
    private Set<String> equalityFields;

    /**
     * A record written by the writer that receives it, without a shuffle.
     *
     * @param tableIdentifier the target table
     * @param branch the target branch, or {@code null} for the main branch
     * @param schema the schema of {@code rowData}
     * @param rowData the row
     * @param partitionSpec the table's partition spec (bound to {@code schema}); unpartitioned for
     *     none
     */
    public DynamicRecord(
            TableIdentifier tableIdentifier,
            String branch,
            Schema schema,
            RowData rowData,
            PartitionSpec partitionSpec) {
        this(
                tableIdentifier,
                branch,
                schema,
                rowData,
                partitionSpec,
                DistributionMode.NONE,
                Integer.MAX_VALUE);
    }

    /**
     * @param tableIdentifier the target table
     * @param branch the target branch, or {@code null} for the main branch
     * @param schema the schema of {@code rowData}
     * @param rowData the row
     * @param partitionSpec the table's partition spec (bound to {@code schema})
     * @param distributionMode how the table's rows are spread over the writers: {@code NONE} (the
     *     writer that receives the row), {@code HASH} (by partition, or by equality fields for an
     *     upsert)
     * @param writeParallelism how many writers the table's rows are spread over, at most
     */
    public DynamicRecord(
            TableIdentifier tableIdentifier,
            String branch,
            Schema schema,
            RowData rowData,
            PartitionSpec partitionSpec,
            DistributionMode distributionMode,
            int writeParallelism) {
        this.tableIdentifier = Objects.requireNonNull(tableIdentifier, "tableIdentifier");
        this.branch = branch;
        this.schema = Objects.requireNonNull(schema, "schema");
        this.rowData = Objects.requireNonNull(rowData, "rowData");
        this.partitionSpec = Objects.requireNonNull(partitionSpec, "partitionSpec");
        this.distributionMode = Objects.requireNonNull(distributionMode, "distributionMode");
        this.writeParallelism = writeParallelism;
        this.equalityFields = Set.of();
    }

    public TableIdentifier tableIdentifier() {
        return tableIdentifier;
    }

    public void setTableIdentifier(TableIdentifier tableIdentifier) {
        this.tableIdentifier = Objects.requireNonNull(tableIdentifier, "tableIdentifier");
    }

    /** The target branch, or {@code null} for the main branch. */
    public String branch() {
        return branch;
    }

    public void setBranch(String branch) {
        this.branch = branch;
    }

    public Schema schema() {
        return schema;
    }

    public void setSchema(Schema schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    public PartitionSpec spec() {
        return partitionSpec;
    }

    public void setPartitionSpec(PartitionSpec partitionSpec) {
        this.partitionSpec = Objects.requireNonNull(partitionSpec, "partitionSpec");
    }

    public RowData rowData() {
        return rowData;
    }

    public void setRowData(RowData rowData) {
        this.rowData = Objects.requireNonNull(rowData, "rowData");
    }

    public DistributionMode distributionMode() {
        return distributionMode;
    }

    public void setDistributionMode(DistributionMode distributionMode) {
        this.distributionMode = Objects.requireNonNull(distributionMode, "distributionMode");
    }

    public int writeParallelism() {
        return writeParallelism;
    }

    public void writeParallelism(int parallelism) {
        this.writeParallelism = parallelism;
    }

    /** Whether an insert or update replaces the table's row with the same equality fields. */
    public boolean upsertMode() {
        return upsertMode;
    }

    public void setUpsertMode(boolean upsertMode) {
        this.upsertMode = upsertMode;
    }

    /**
     * The columns that identify a row for updates, deletes and upserts; empty for the table's
     * identifier fields.
     */
    public Set<String> equalityFields() {
        return equalityFields;
    }

    public void setEqualityFields(Set<String> equalityFields) {
        this.equalityFields = Set.copyOf(Objects.requireNonNull(equalityFields, "equalityFields"));
    }

    @Override
    public String toString() {
        return "DynamicRecord{table="
                + tableIdentifier
                + (branch == null ? "" : ", branch=" + branch)
                + ", schemaId="
                + schema.schemaId()
                + ", specId="
                + partitionSpec.specId()
                + ", kind="
                + rowData.getRowKind()
                + ", distribution="
                + distributionMode
                + (upsertMode ? ", upsert on " + equalityFields : "")
                + "}";
    }
}
