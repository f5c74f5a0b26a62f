package dev.icebergflink.sink.dynamic;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.SchemaParser;

/**
 * A {@link DynamicRecord} the dynamic sink did not write because its schema cannot be written to
 * its table, with the reason; what {@link DynamicIcebergSink.Builder#incompatibleRecords()} emits
 * when {@link DynamicIcebergSink.Builder#incompatibleRecordsToSideOutput} is on.
 *
 * <p>It exists so that a replication job can park such records (a dead-letter table or topic) and
 * go on with the others instead of failing. Its fields are plain strings, so it travels and is
 * stored by Flink's POJO serializer and is easy to write anywhere.
 */
@PublicEvolving
public class IncompatibleRecord {

    /** The table the record was meant for, e.g. {@code db.orders}. */
    public String table;

    /** The branch, or null for the table's default. */
    public String branch;

    /** Why the record could not be written: table, column, and both types. */
    public String reason;

    /** The record's schema as Iceberg's JSON. */
    public String schema;

    /** The record's row as text: its kind and values. */
    public String row;

    /** An empty record (for Flink's POJO serializer). */
    public IncompatibleRecord() {}

    static IncompatibleRecord of(DynamicRecord record, IncompatibleSchemaException reason) {
        IncompatibleRecord incompatible = new IncompatibleRecord();
        incompatible.table = record.tableIdentifier().toString();
        incompatible.branch = record.branch();
        incompatible.reason = reason.getMessage();
        incompatible.schema = SchemaParser.toJson(record.schema());
        incompatible.row = String.valueOf(record.rowData());
        return incompatible;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IncompatibleRecord that
                && Objects.equals(table, that.table)
                && Objects.equals(branch, that.branch)
                && Objects.equals(reason, that.reason)
                && Objects.equals(schema, that.schema)
                && Objects.equals(row, that.row);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, branch, reason, row);
    }

    @Override
    public String toString() {
        return "IncompatibleRecord{table=" + table + ", reason=" + reason + ", row=" + row + "}";
    }
}
