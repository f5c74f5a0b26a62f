package dev.icebergflink.data.parquet;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
                Set<LogicalTypeRoot> allowed = compatibleRoots(type);
                require(
                        allowed.contains(root),
                        type,
                        flinkType,
                        path,
                        allowed.isEmpty()
                                ? "none, the Flink connector does not support " + type
                                : allowed.toString());
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
            throw mismatch(map, flinkType, path, "MAP or MULTISET");
        }
        visitField(map.keyId(), map.keyType(), keyType, path + ".key");
        visitField(map.valueId(), map.valueType(), valueType, path + ".value");
    }

    private static Set<LogicalTypeRoot> compatibleRoots(Type type) {
        switch (type.typeId()) {
            case BOOLEAN:
                return EnumSet.of(LogicalTypeRoot.BOOLEAN);
            case INTEGER:
                return EnumSet.of(
                        LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER);
            case LONG:
                return EnumSet.of(LogicalTypeRoot.BIGINT);
            case FLOAT:
                return EnumSet.of(LogicalTypeRoot.FLOAT);
            case DOUBLE:
                return EnumSet.of(LogicalTypeRoot.DOUBLE);
            case DATE:
                return EnumSet.of(LogicalTypeRoot.DATE);
            case TIME:
                return EnumSet.of(LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE);
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return EnumSet.of(
                        LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
                        LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
            case STRING:
                return EnumSet.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR);
            case UUID:
            case FIXED:
            case BINARY:
                return EnumSet.of(LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY);
            case DECIMAL:
                return EnumSet.of(LogicalTypeRoot.DECIMAL);
            default:
                return EnumSet.noneOf(LogicalTypeRoot.class);
        }
    }

    private static void require(
            boolean condition, Type type, LogicalType flinkType, String path, String allowed) {
        if (!condition) {
            throw mismatch(type, flinkType, path, allowed);
        }
    }

    private static IllegalArgumentException mismatch(
            Type type, LogicalType flinkType, String path, String allowed) {
        return new IllegalArgumentException(
                String.format(
                        "Column '%s': Flink type %s cannot hold Iceberg type %s; allowed Flink"
                                + " types: %s",
                        path, flinkType, type, allowed));
    }

    private static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }
}
