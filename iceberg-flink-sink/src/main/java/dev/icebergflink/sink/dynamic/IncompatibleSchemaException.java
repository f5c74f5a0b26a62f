package dev.icebergflink.sink.dynamic;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A record's schema differs from its table's in a way Iceberg cannot follow without rewriting data:
 * a column's type narrowed or changed to an unrelated type, or a column that is a struct, list or
 * map on one side and not on the other. The message names the table, the column, the type in the
 * table and the type in the record.
 */
@PublicEvolving
public class IncompatibleSchemaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public IncompatibleSchemaException(String message) {
        super(message);
    }
}
