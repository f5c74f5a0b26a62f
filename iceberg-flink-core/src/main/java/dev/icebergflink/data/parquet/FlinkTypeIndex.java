package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.FlinkTypeRoots;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The Flink type of every Iceberg field id of a schema, found by walking the Iceberg schema and the
 * Flink row type side by side (fields match by position).
 *
 * <p>Writers need it because the Parquet file schema only carries Iceberg types, while the value
 * held in a {@code RowData} depends on the Flink type: a TINYINT column holds a {@code byte}, a
 * MULTISET a map of element to count, a DECIMAL is read with the Flink precision. While walking,
 * every pair is checked, so a mismatched row type fails early with a message naming the column.
 */
final class FlinkTypeIndex {

    private final Map<Integer, LogicalType> typesById = new HashMap<>();

    private FlinkTypeIndex() {}

    /**
     * Pairs {@code struct} with {@code rowType}.
     *
     * @throws IllegalArgumentException naming the column when a Flink type cannot hold the values
     *     of its Iceberg column
     */
    static FlinkTypeIndex of(Types.StructType struct, RowType rowType) {
        FlinkTypeIndex index = new FlinkTypeIndex();
        index.visitStruct(struct, rowType, "");
        return index;
    }

    /** The Flink type paired with the Iceberg field id, or null when the id is unknown. */
    LogicalType get(int fieldId) {
        return typesById.get(fieldId);
    }

    private void visitStruct(Types.StructType struct, RowType rowType, String path) {
        List<Types.NestedField> fields = struct.fields();
        if (fields.size() != rowType.getFieldCount()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Flink row type %s has %d fields but Iceberg struct %s has %d fields %s;"
                                    + " they must match by position",
                            rowType,
                            rowType.getFieldCount(),
                            path.isEmpty() ? "(the table schema)" : "'" + path + "'",
                            fields.size(),
                            struct));
        }
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            visitField(
                    field.fieldId(), field.type(), rowType.getTypeAt(i), child(path, field.name()));
        }
    }

    private void visitField(int id, Type type, LogicalType flinkType, String path) {
        typesById.put(id, flinkType);
        LogicalTypeRoot root = flinkType.getTypeRoot();
        switch (type.typeId()) {
            case STRUCT:
                require(root == LogicalTypeRoot.ROW, type, flinkType, path, "ROW");
                visitStruct(type.asStructType(), (RowType) flinkType, path);
                return;
            case LIST:
                require(root == LogicalTypeRoot.ARRAY, type, flinkType, path, "ARRAY");
                Types.ListType list = type.asListType();
                visitField(
                        list.elementId(),
                        list.elementType(),
                        ((ArrayType) flinkType).getElementType(),
                        path + ".element");
                return;
            case MAP:
                visitMap(type.asMapType(), flinkType, path);
                return;
            default:
                FlinkTypeRoots.requireFits(type, flinkType, path);
        }
    }

    private void visitMap(Types.MapType map, LogicalType flinkType, String path) {
        LogicalType keyType;
        LogicalType valueType;
        if (flinkType.getTypeRoot() == LogicalTypeRoot.MAP) {
            keyType = ((MapType) flinkType).getKeyType();
            valueType = ((MapType) flinkType).getValueType();
        } else if (flinkType.getTypeRoot() == LogicalTypeRoot.MULTISET) {
            // A MULTISET is held as a map of element to its count.
            keyType = ((MultisetType) flinkType).getElementType();
            valueType = new IntType(false);
            require(
                    map.valueType().typeId() == Type.TypeID.INTEGER,
                    map,
                    flinkType,
                    path,
                    "MAP (a MULTISET needs an Iceberg map<T, int>)");
        } else {
            throw FlinkTypeRoots.mismatch(map, flinkType, path, "MAP or MULTISET");
        }
        visitField(map.keyId(), map.keyType(), keyType, path + ".key");
        visitField(map.valueId(), map.valueType(), valueType, path + ".value");
    }

    private static void require(
            boolean condition, Type type, LogicalType flinkType, String path, String allowed) {
        if (!condition) {
            throw FlinkTypeRoots.mismatch(type, flinkType, path, allowed);
        }
    }

    private static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }
}
