package dev.icebergflink.sink.dynamic;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Decides how a table's schema must change to take records of an input schema, among the changes
 * Iceberg makes without rewriting data, and refuses the rest.
 *
 * <p>Columns match by name (ignoring case unless told otherwise), at every nesting level:
 *
 * <ul>
 *   <li>an input column the table lacks is added as an optional column (Iceberg adds no required
 *       column to a table with rows);
 *   <li>a column whose input type is a widening of the table's (int to long, float to double, a
 *       decimal of higher precision and the same scale) is widened; an input type the table's type
 *       widens is written converted to it (an int into a long column);
 *   <li>a required table column that the input has as optional, or lacks, is made optional;
 *   <li>a table column the input lacks is dropped, when the sink is told to drop unused columns;
 *   <li>anything else (a narrowed or unrelated type, a struct, list or map against another kind) is
 *       an {@link IncompatibleSchemaException} naming the table, the column and both types.
 * </ul>
 */
@Internal
public final class SchemaEvolution {

    private final String table;
    private final boolean caseSensitive;
    private final boolean dropUnusedColumns;

    /**
     * @param table the table's name, for messages
     * @param caseSensitive whether column names match exactly
     * @param dropUnusedColumns whether table columns the input lacks are dropped
     */
    public SchemaEvolution(String table, boolean caseSensitive, boolean dropUnusedColumns) {
        this.table = table;
        this.caseSensitive = caseSensitive;
        this.dropUnusedColumns = dropUnusedColumns;
    }

    /**
     * The changes that make {@code tableSchema} take records of {@code inputSchema}, in the order
     * they are to be applied; empty when it takes them as it is.
     *
     * @throws IncompatibleSchemaException when the input needs a change Iceberg cannot make
     */
    public List<SchemaChange> changes(Schema tableSchema, Schema inputSchema) {
        List<SchemaChange> changes = new ArrayList<>();
        struct(null, tableSchema.asStruct(), inputSchema.asStruct(), changes);
        return changes;
    }

    /** Applies {@code changes} to a pending update of the table's schema (not committed). */
    public UpdateSchema apply(List<SchemaChange> changes, UpdateSchema update) {
        UpdateSchema pending = update.caseSensitive(caseSensitive);
        for (SchemaChange change : changes) {
            change.applyTo(pending);
        }
        return pending;
    }

    private void struct(
            String parent,
            Types.StructType tableStruct,
            Types.StructType inputStruct,
            List<SchemaChange> changes) {
        for (Types.NestedField input : inputStruct.fields()) {
            Types.NestedField existing = find(tableStruct, input.name());
            if (existing == null) {
                changes.add(
                        SchemaChange.addColumn(parent, input.name(), input.type(), input.doc()));
            } else {
                String path = path(parent, existing.name());
                if (existing.isRequired() && input.isOptional()) {
                    changes.add(SchemaChange.makeOptional(path));
                }
                type(path, existing.type(), input.type(), changes);
            }
        }
        for (Types.NestedField existing : tableStruct.fields()) {
            if (find(inputStruct, existing.name()) == null) {
                String path = path(parent, existing.name());
                if (dropUnusedColumns) {
                    changes.add(SchemaChange.drop(path));
                } else if (existing.isRequired()) {
                    changes.add(SchemaChange.makeOptional(path));
                }
            }
        }
    }

    private void type(String path, Type tableType, Type inputType, List<SchemaChange> changes) {
        if (tableType.equals(inputType)) {
            return;
        }
        if (tableType.isPrimitiveType() && inputType.isPrimitiveType()) {
            if (TypeUtil.isPromotionAllowed(tableType, inputType.asPrimitiveType())) {
                changes.add(SchemaChange.widen(path, inputType.asPrimitiveType()));
            } else if (!TypeUtil.isPromotionAllowed(inputType, tableType.asPrimitiveType())) {
                throw incompatible(path, tableType, inputType);
            }
            return;
        }
        if (tableType.typeId() != inputType.typeId()) {
            throw incompatible(path, tableType, inputType);
        }
        switch (tableType.typeId()) {
            case STRUCT:
                struct(path, tableType.asStructType(), inputType.asStructType(), changes);
                return;
            case LIST:
                Types.ListType tableList = tableType.asListType();
                Types.ListType inputList = inputType.asListType();
                nested(
                        path + ".element",
                        tableList.fields().get(0),
                        inputList.fields().get(0),
                        changes);
                return;
            case MAP:
                Types.MapType tableMap = tableType.asMapType();
                Types.MapType inputMap = inputType.asMapType();
                Type tableKey = tableMap.keyType();
                Type inputKey = inputMap.keyType();
                boolean keyWritable =
                        tableKey.equals(inputKey)
                                || (tableKey.isPrimitiveType()
                                        && inputKey.isPrimitiveType()
                                        && TypeUtil.isPromotionAllowed(
                                                inputKey, tableKey.asPrimitiveType()));
                if (!keyWritable) {
                    // Iceberg changes no map key type
                    throw incompatible(path + ".key", tableKey, inputKey);
                }
                nested(
                        path + ".value",
                        tableMap.fields().get(1),
                        inputMap.fields().get(1),
                        changes);
                return;
            default:
                throw incompatible(path, tableType, inputType);
        }
    }

    /** A list element or map value: its type, and whether it may hold nulls. */
    private void nested(
            String path,
            Types.NestedField tableField,
            Types.NestedField inputField,
            List<SchemaChange> changes) {
        if (tableField.isRequired() && inputField.isOptional()) {
            changes.add(SchemaChange.makeOptional(path));
        }
        type(path, tableField.type(), inputField.type(), changes);
    }

    private Types.NestedField find(Types.StructType struct, String name) {
        if (caseSensitive) {
            return struct.field(name);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (Types.NestedField field : struct.fields()) {
            if (field.name().toLowerCase(Locale.ROOT).equals(lower)) {
                return field;
            }
        }
        return null;
    }

    private static String path(String parent, String name) {
        return parent == null ? name : parent + "." + name;
    }

    private IncompatibleSchemaException incompatible(String path, Type tableType, Type inputType) {
        return new IncompatibleSchemaException(
                String.format(
                        "Table %s: column '%s' is %s in the table and %s in the record; Iceberg"
                                + " changes a column's type without rewriting data only by"
                                + " widening it (int to long, float to double, decimal to a higher"
                                + " precision of the same scale), so write the record into a new"
                                + " column or a new table",
                        table, path, tableType, inputType));
    }
}
