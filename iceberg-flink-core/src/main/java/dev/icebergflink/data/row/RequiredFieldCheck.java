package dev.icebergflink.data.row;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Rejects a Flink row that holds a NULL where the Iceberg schema has a required field, before any
 * of it reaches a Parquet, ORC or Avro file.
 *
 * <p>It exists because nothing else stops such a row. Flink enforces NOT NULL only on top-level
 * columns of SQL inserts ({@code table.exec.sink.not-null-enforcer}); it checks neither fields
 * nested in a ROW (or in the ROWs of an ARRAY or MAP) nor rows handed to the sink through the
 * DataStream API. Left alone, the file writers either fail with a bare {@code NullPointerException}
 * (Parquet, Avro) or write a file that breaks the table schema (ORC, which has no required columns,
 * stores the NULL); a Flink type that says NOT NULL even makes Flink read whatever the null slot of
 * a binary row holds.
 *
 * <p>Which fields need a look is decided once per writer, from the Iceberg schema: required fields
 * at any depth, the elements of lists whose elements are required, and the keys (always required in
 * Iceberg) and required values of maps. Subtrees without any of them are never visited, so a schema
 * without required fields costs one empty loop per row and a row with only top-level required
 * columns one null-bit test per such column. Fields are matched with the Flink row type by
 * position, the same way the writers match them.
 */
@Internal
public final class RequiredFieldCheck {

    private static final RequiredFieldCheck NONE = new RequiredFieldCheck(null);

    private final RowCheck root;

    private RequiredFieldCheck(RowCheck root) {
        this.root = root;
    }

    /**
     * The check for rows of {@code rowType} written with {@code schema}.
     *
     * @param schema the Iceberg schema of the file, which says which fields are required
     * @param rowType the Flink type of the rows; its fields match the schema's by position
     */
    public static RequiredFieldCheck of(Schema schema, RowType rowType) {
        ValueCheck root = forType(schema.asStruct(), rowType, "");
        return root instanceof RowCheck ? new RequiredFieldCheck((RowCheck) root) : NONE;
    }

    /** Whether any field of the schema needs a look; false when {@link #check} does nothing. */
    public boolean checksAnything() {
        return root != null;
    }

    /**
     * Fails if {@code row} holds a NULL in a required field.
     *
     * @throws IllegalArgumentException naming the column path of the first such field
     */
    public void check(RowData row) {
        if (root != null) {
            root.check(row);
        }
    }

    // --------------------------------------------------------------------- building

    /** A check of a non-null value of one type, or null when nothing inside it is required. */
    private static ValueCheck forType(Type type, LogicalType flinkType, String path) {
        switch (type.typeId()) {
            case STRUCT:
                if (!(flinkType instanceof RowType)) {
                    return null; // the writer itself reports the mismatch
                }
                return forStruct(type.asStructType(), (RowType) flinkType, path);
            case LIST:
                if (!(flinkType instanceof ArrayType)) {
                    return null;
                }
                Types.ListType list = type.asListType();
                return forElements(
                        list.elementType(),
                        list.isElementRequired(),
                        ((ArrayType) flinkType).getElementType(),
                        path + ".element");
            case MAP:
                return forMap(type.asMapType(), flinkType, path);
            default:
                return null;
        }
    }

    private static RowCheck forStruct(Types.StructType struct, RowType rowType, String path) {
        List<Types.NestedField> fields = struct.fields();
        if (fields.size() != rowType.getFieldCount()) {
            return null; // the writer itself reports the mismatch
        }
        List<FieldRule> rules = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            LogicalType fieldType = rowType.getTypeAt(i);
            String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
            ValueCheck nested = forType(field.type(), fieldType, fieldPath);
            if (field.isRequired() || nested != null) {
                rules.add(
                        new FieldRule(
                                i,
                                fieldPath,
                                field.isRequired(),
                                nested == null
                                        ? null
                                        : RowData.createFieldGetter(fieldType.copy(true), i),
                                nested));
            }
        }
        return rules.isEmpty() ? null : new RowCheck(rules.toArray(new FieldRule[0]));
    }

    private static ArrayCheck forElements(
            Type elementType, boolean required, LogicalType flinkElementType, String path) {
        ValueCheck nested = forType(elementType, flinkElementType, path);
        if (!required && nested == null) {
            return null;
        }
        return new ArrayCheck(
                path,
                required,
                nested == null ? null : ArrayData.createElementGetter(flinkElementType.copy(true)),
                nested);
    }

    private static ValueCheck forMap(Types.MapType map, LogicalType flinkType, String path) {
        if (flinkType.getTypeRoot() == LogicalTypeRoot.MAP) {
            MapType mapType = (MapType) flinkType;
            ArrayCheck keys = forElements(map.keyType(), true, mapType.getKeyType(), path + ".key");
            ArrayCheck values =
                    forElements(
                            map.valueType(),
                            map.isValueRequired(),
                            mapType.getValueType(),
                            path + ".value");
            return new MapCheck(keys, values);
        } else if (flinkType.getTypeRoot() == LogicalTypeRoot.MULTISET) {
            // The counts of a multiset are never null; only its elements (the keys) need a look.
            ArrayCheck keys =
                    forElements(
                            map.keyType(),
                            true,
                            ((MultisetType) flinkType).getElementType(),
                            path + ".key");
            return new MapCheck(keys, null);
        }
        return null; // the writer itself reports the mismatch
    }

    static IllegalArgumentException nullInRequired(String path) {
        return new IllegalArgumentException(
                String.format(
                        "NULL value in column '%s', which the Iceberg table schema declares"
                                + " required (NOT NULL). The row is rejected: files must not hold"
                                + " NULL in a required field. Fix the input, or make the column"
                                + " nullable (ALTER TABLE ... MODIFY ... NULL).",
                        path));
    }

    // --------------------------------------------------------------------- checking

    /** Checks one non-null value. */
    private interface ValueCheck {
        void check(Object value);
    }

    /** One field of a row: whether it must be non-null, and what to check inside it. */
    private record FieldRule(
            int position,
            String path,
            boolean required,
            RowData.FieldGetter getter,
            ValueCheck nested) {}

    private static final class RowCheck implements ValueCheck {
        private final FieldRule[] rules;

        private RowCheck(FieldRule[] rules) {
            this.rules = rules;
        }

        @Override
        public void check(Object value) {
            RowData row = (RowData) value;
            for (FieldRule rule : rules) {
                if (row.isNullAt(rule.position)) {
                    if (rule.required) {
                        throw nullInRequired(rule.path);
                    }
                } else if (rule.nested != null) {
                    rule.nested.check(rule.getter.getFieldOrNull(row));
                }
            }
        }
    }

    private static final class ArrayCheck implements ValueCheck {
        private final String path;
        private final boolean required;
        private final ArrayData.ElementGetter getter;
        private final ValueCheck nested;

        private ArrayCheck(
                String path, boolean required, ArrayData.ElementGetter getter, ValueCheck nested) {
            this.path = path;
            this.required = required;
            this.getter = getter;
            this.nested = nested;
        }

        @Override
        public void check(Object value) {
            ArrayData array = (ArrayData) value;
            int size = array.size();
            for (int i = 0; i < size; i++) {
                if (array.isNullAt(i)) {
                    if (required) {
                        throw nullInRequired(path);
                    }
                } else if (nested != null) {
                    nested.check(getter.getElementOrNull(array, i));
                }
            }
        }
    }

    private static final class MapCheck implements ValueCheck {
        private final ArrayCheck keys;
        private final ArrayCheck values;

        private MapCheck(ArrayCheck keys, ArrayCheck values) {
            this.keys = keys;
            this.values = values;
        }

        @Override
        public void check(Object value) {
            MapData map = (MapData) value;
            if (keys != null) {
                keys.check(map.keyArray());
            }
            if (values != null) {
                values.check(map.valueArray());
            }
        }
    }
}
