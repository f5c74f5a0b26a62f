package dev.icebergflink.source.config;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * The schemas of a read: the schema of the snapshot read, columns looked up by name with or without
 * case, and the projection resolved against it.
 *
 * <p>It exists so that the plan ({@link ScanContext}) and its validation look columns up by one
 * rule: by exact name when the read is case-sensitive, ignoring case otherwise.
 */
final class ReadSchemas {

    private ReadSchemas() {}

    /** The schema of the time-travel target (its snapshot's schema), else the current one. */
    static Schema readSchema(Table table, Long snapshotId, String tag) {
        Snapshot target =
                snapshotId != null
                        ? table.snapshot(snapshotId)
                        : tag != null ? table.snapshot(tag) : null;
        if (target == null || target.schemaId() == null) {
            return table.schema();
        }
        Schema schema = table.schemas().get(target.schemaId());
        return schema == null ? table.schema() : schema;
    }

    /** The column of {@code schema} with this name, or {@code null}. */
    static Types.NestedField find(Schema schema, String name, boolean caseSensitive) {
        return caseSensitive ? schema.findField(name) : schema.caseInsensitiveFindField(name);
    }

    /**
     * The table's fields for the requested top-level columns, in the order requested.
     *
     * @throws IllegalArgumentException naming the columns the table does not have
     */
    static Schema project(Schema tableSchema, Schema projection, boolean caseSensitive) {
        List<Types.NestedField> fields = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Types.NestedField requested : projection.columns()) {
            Types.NestedField found = find(tableSchema, requested.name(), caseSensitive);
            if (found == null || tableSchema.asStruct().field(found.fieldId()) == null) {
                missing.add(requested.name());
            } else {
                fields.add(found);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The projection names column(s) %s that the table does not have"
                                    + " (case-%s); the table's columns are %s",
                            missing,
                            caseSensitive ? "sensitive" : "insensitive",
                            columnNames(tableSchema)));
        }
        return new Schema(fields);
    }

    /** The names of the top-level columns, for messages. */
    static List<String> columnNames(Schema schema) {
        return schema.columns().stream().map(Types.NestedField::name).toList();
    }
}
