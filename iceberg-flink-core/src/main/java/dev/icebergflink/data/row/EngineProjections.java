package dev.icebergflink.data.row;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;

/**
 * Checks the Flink row type a caller asks a reader to produce ({@code engineProjection} on
 * Iceberg's read builder) against the projected Iceberg schema, so that every format's RowData
 * reader rejects a mismatched projection the same way, before reading a row.
 */
@Internal
public final class EngineProjections {

    private EngineProjections() {}

    /**
     * Fails unless {@code engineProjection} is null (derive it from the schema) or has one field
     * per projected column.
     *
     * @throws IllegalArgumentException naming both shapes
     */
    public static void requireMatching(RowType engineProjection, Schema expectedSchema) {
        if (engineProjection != null
                && engineProjection.getFieldCount() != expectedSchema.columns().size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The Flink projection %s has %d fields but the projected Iceberg schema"
                                    + " has %d columns: %s",
                            engineProjection,
                            engineProjection.getFieldCount(),
                            expectedSchema.columns().size(),
                            expectedSchema.asStruct()));
        }
    }
}
