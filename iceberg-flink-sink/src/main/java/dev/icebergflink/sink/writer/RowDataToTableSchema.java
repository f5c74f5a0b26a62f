package dev.icebergflink.sink.writer;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.Serializable;
import java.util.Locale;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Turns rows of one schema into rows of a table's schema that evolved from it or took its changes:
 * fields matched by name and put in the table's order, values of types the table widens converted
 * (int to long, float to double, decimals to the table's precision), columns the rows lack NULL,
 * columns the table no longer has left out.
 *
 * <p>It exists because Iceberg's writers take rows of the table's current schema, while rows often
 * follow another one: the dynamic sink's records carry their own schema, and a running sink that
 * follows its table ({@code table-refresh-interval}) gets rows of the schema the job was built
 * with. When the two schemas have the same fields with the same types in the same order, rows pass
 * unchanged.
 */
@Internal
public final class RowDataToTableSchema implements Serializable {

    private static final long serialVersionUID = 1L;

    private final FieldConverter root;

    /**
     * @param inputSchema the schema the rows follow
     * @param tableSchema the table's schema, which takes the input (only widening changes)
     * @param caseSensitive whether names match exactly
     */
    public RowDataToTableSchema(Schema inputSchema, Schema tableSchema, boolean caseSensitive) {
        this.root = struct(inputSchema.asStruct(), tableSchema.asStruct(), caseSensitive);
    }

    /** Whether rows pass unchanged. */
    public boolean isIdentity() {
        return root == null;
    }

    /** The row in the table's schema, with the input row's kind. */
    public RowData convert(RowData row) {
        if (root == null) {
            return row;
        }
        RowData converted = (RowData) root.convert(row);
        converted.setRowKind(row.getRowKind());
        return converted;
    }

    /** Converts one value of a field; {@code null} converters mean the value passes unchanged. */
    private interface FieldConverter extends Serializable {
        Object convert(Object value);
    }

    /** The struct converter, or {@code null} when the two structs match exactly. */
    private static FieldConverter struct(
            Types.StructType input, Types.StructType table, boolean caseSensitive) {
        int count = table.fields().size();
        int[] positions = new int[count];
        RowData.FieldGetter[] getters = new RowData.FieldGetter[count];
        FieldConverter[] converters = new FieldConverter[count];
        boolean identity = input.fields().size() == count;
        for (int i = 0; i < count; i++) {
            Types.NestedField tableField = table.fields().get(i);
            int position = indexOf(input, tableField.name(), caseSensitive);
            positions[i] = position;
            if (position < 0) {
                identity = false;
                continue;
            }
            Types.NestedField inputField = input.fields().get(position);
            LogicalType inputType = FlinkSchemaUtil.convert(inputField.type());
            getters[i] = RowData.createFieldGetter(inputType, position);
            converters[i] = value(inputField.type(), tableField.type(), caseSensitive);
            identity &= position == i && converters[i] == null;
        }
        if (identity) {
            return null;
        }
        return value -> {
            RowData row = (RowData) value;
            GenericRowData converted = new GenericRowData(count);
            for (int i = 0; i < count; i++) {
                if (positions[i] < 0) {
                    continue;
                }
                Object field = getters[i].getFieldOrNull(row);
                converted.setField(
                        i,
                        field == null || converters[i] == null
                                ? field
                                : converters[i].convert(field));
            }
            return converted;
        };
    }

    /** The converter of one value, or {@code null} when it passes unchanged. */
    private static FieldConverter value(Type input, Type table, boolean caseSensitive) {
        if (input.equals(table)) {
            return null;
        }
        switch (table.typeId()) {
            case LONG:
                return input.typeId() == Type.TypeID.INTEGER
                        ? v -> ((Integer) v).longValue()
                        : null;
            case DOUBLE:
                return input.typeId() == Type.TypeID.FLOAT ? v -> ((Float) v).doubleValue() : null;
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) table;
                int precision = decimal.precision();
                int scale = decimal.scale();
                return v ->
                        DecimalData.fromBigDecimal(
                                ((DecimalData) v).toBigDecimal(), precision, scale);
            case STRUCT:
                return struct(input.asStructType(), table.asStructType(), caseSensitive);
            case LIST:
                return list(input.asListType(), table.asListType(), caseSensitive);
            case MAP:
                return map(input.asMapType(), table.asMapType(), caseSensitive);
            default:
                return null;
        }
    }

    private static FieldConverter list(
            Types.ListType input, Types.ListType table, boolean caseSensitive) {
        FieldConverter element = value(input.elementType(), table.elementType(), caseSensitive);
        if (element == null) {
            return null;
        }
        ArrayData.ElementGetter getter =
                ArrayData.createElementGetter(FlinkSchemaUtil.convert(input.elementType()));
        return v -> new GenericArrayData(elements((ArrayData) v, getter, element));
    }

    private static FieldConverter map(
            Types.MapType input, Types.MapType table, boolean caseSensitive) {
        FieldConverter key = value(input.keyType(), table.keyType(), caseSensitive);
        FieldConverter value = value(input.valueType(), table.valueType(), caseSensitive);
        if (key == null && value == null) {
            return null;
        }
        ArrayData.ElementGetter keyGetter =
                ArrayData.createElementGetter(FlinkSchemaUtil.convert(input.keyType()));
        ArrayData.ElementGetter valueGetter =
                ArrayData.createElementGetter(FlinkSchemaUtil.convert(input.valueType()));
        return v -> {
            MapData map = (MapData) v;
            Object[] keys = elements(map.keyArray(), keyGetter, key);
            Object[] values = elements(map.valueArray(), valueGetter, value);
            java.util.Map<Object, Object> converted = new java.util.LinkedHashMap<>();
            for (int i = 0; i < keys.length; i++) {
                converted.put(keys[i], values[i]);
            }
            return new GenericMapData(converted);
        };
    }

    private static Object[] elements(
            ArrayData array, ArrayData.ElementGetter getter, FieldConverter converter) {
        Object[] elements = new Object[array.size()];
        for (int i = 0; i < elements.length; i++) {
            Object element = getter.getElementOrNull(array, i);
            elements[i] =
                    element == null || converter == null ? element : converter.convert(element);
        }
        return elements;
    }

    private static int indexOf(Types.StructType struct, String name, boolean caseSensitive) {
        for (int i = 0; i < struct.fields().size(); i++) {
            String candidate = struct.fields().get(i).name();
            if (caseSensitive
                    ? candidate.equals(name)
                    : candidate.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        return -1;
    }
}
