package dev.icebergflink.examples;

import java.util.Map;

/**
 * One change of one row of a source database, the way a CDC tool reports it: which table, what
 * happened, the row's primary key, the version of the table's schema the row follows, and the row's
 * other columns by name. {@link DatabaseReplication} turns each into a row of an Iceberg table.
 *
 * <p>It exists so that the replication example starts from what a change log delivers, not from
 * rows already shaped for Iceberg: values arrive as text (as in a JSON change log) and are typed by
 * the schema version they name. It is a record of plain fields, which Flink serializes as a POJO.
 *
 * @param table the source table, e.g. {@code orders}
 * @param operation what happened to the row
 * @param key the row's primary key (column {@code id} in every source table)
 * @param schemaVersion the version of the table's schema the row follows (see {@link
 *     GeneratedChanges#schema})
 * @param values the row's other columns by name, as text; a column that is missing is NULL, and a
 *     delete carries none
 */
public record ChangeEvent(
        String table,
        Operation operation,
        long key,
        int schemaVersion,
        Map<String, String> values) {

    /** What happened to the row. */
    public enum Operation {
        /** A new row. */
        INSERT,
        /** New values of an existing row. */
        UPDATE,
        /** The row is gone. */
        DELETE
    }

    /** The row this change is about, unique across the source database: {@code table/key}. */
    public String rowKey() {
        return table + "/" + key;
    }

    @Override
    public String toString() {
        return operation + " " + table + " id=" + key + " v" + schemaVersion + " " + values;
    }
}
