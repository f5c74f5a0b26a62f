package dev.icebergflink.tasks.reader;

import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Reads files written after a projected column was widened ({@code int} to {@code bigint}, {@code
 * float} to {@code double}, a decimal's precision raised) with the projection the read was built
 * with.
 *
 * <p>It exists because a streaming read keeps its projection, and so the Flink types it emits, for
 * its whole life, while the table's schema may change under it. Iceberg readers only promote: they
 * read an {@code int} file column as {@code bigint}, never a {@code bigint} one as {@code int}. So
 * a file task whose schema (the table's schema when the task was planned) has a wider type for a
 * projected column is read with that wider type, which reads the task's older files too, and each
 * value is narrowed back to the projected type: {@code bigint} values outside the {@code int}
 * range, finite {@code double}s beyond the {@code float} range and decimals with more digits than
 * the projected precision fail the read (a restart cannot help, so restarts are suppressed); other
 * {@code double}s are rounded to the nearest {@code float}. Columns are matched by field id, so
 * renamed columns and nested fields are found too.
 */
final class WidenedColumns {

    private WidenedColumns() {}

    /**
     * The projection with every column, at any depth, whose type in {@code taskSchema} is a
     * widening of its projected type given the wider type; {@code projected} itself when there is
     * none (the usual case).
     */
    static Schema widen(Schema projected, Schema taskSchema) {
        if (taskSchema == null) {
            return projected;
        }
        Types.StructType struct = projected.asStruct();
        Type widened = widen(struct, null, taskSchema);
        return widened == struct ? projected : new Schema(widened.asStructType().fields());
    }

    private static Type widen(Type projected, Type inTask, Schema taskSchema) {
        switch (projected.typeId()) {
            case STRUCT:
                List<Types.NestedField> fields = new ArrayList<>();
                boolean changed = false;
                for (Types.NestedField field : projected.asStructType().fields()) {
                    Type type =
                            widen(field.type(), taskSchema.findType(field.fieldId()), taskSchema);
                    changed |= type != field.type();
                    fields.add(
                            type == field.type()
                                    ? field
                                    : Types.NestedField.from(field).ofType(type).build());
                }
                return changed ? Types.StructType.of(fields) : projected;
            case LIST:
                Types.ListType list = projected.asListType();
                Type element =
                        widen(
                                list.elementType(),
                                taskSchema.findType(list.elementId()),
                                taskSchema);
                if (element == list.elementType()) {
                    return projected;
                }
                return list.isElementOptional()
                        ? Types.ListType.ofOptional(list.elementId(), element)
                        : Types.ListType.ofRequired(list.elementId(), element);
            case MAP:
                Types.MapType map = projected.asMapType();
                Type key = widen(map.keyType(), taskSchema.findType(map.keyId()), taskSchema);
                Type value = widen(map.valueType(), taskSchema.findType(map.valueId()), taskSchema);
                if (key == map.keyType() && value == map.valueType()) {
                    return projected;
                }
                return map.isValueOptional()
                        ? Types.MapType.ofOptional(map.keyId(), map.valueId(), key, value)
                        : Types.MapType.ofRequired(map.keyId(), map.valueId(), key, value);
            default:
                return isWidening(projected, inTask) ? inTask : projected;
        }
    }

    /** Whether {@code wider} is one of the type promotions of {@code type} this class narrows. */
    private static boolean isWidening(Type type, Type wider) {
        if (wider == null || !wider.isPrimitiveType()) {
            return false;
        }
        return switch (type.typeId()) {
            case INTEGER -> wider.typeId() == Type.TypeID.LONG;
            case FLOAT -> wider.typeId() == Type.TypeID.DOUBLE;
            case DECIMAL ->
                    wider.typeId() == Type.TypeID.DECIMAL
                            && ((Types.DecimalType) wider).scale()
                                    == ((Types.DecimalType) type).scale()
                            && ((Types.DecimalType) wider).precision()
                                    > ((Types.DecimalType) type).precision();
            default -> false;
        };
    }

    /**
     * Turns rows read with {@code widened} (the result of {@link #widen}, possibly followed by
     * columns read only for filters or deletes) into binary rows of {@code projected}.
     *
     * @param file names the file in the message of a value that does not fit
     */
    static Function<RowData, RowData> narrowing(Schema projected, Schema widened, String file) {
        RowType narrowType = IcebergToFlinkTypeConverter.convertStruct(projected.asStruct());
        RowType wideType = IcebergToFlinkTypeConverter.convertStruct(widened.asStruct());
        Narrower rows = struct(projected.asStruct(), widened.asStruct(), wideType, "", file);
        RowDataSerializer serializer = new RowDataSerializer(narrowType);
        return row -> {
            GenericRowData narrowed = (GenericRowData) rows.narrow(row);
            narrowed.setRowKind(row.getRowKind());
            return serializer.toBinaryRow(narrowed).copy();
        };
    }

    /** Narrows one non-null value of Flink's internal data structures. */
    @FunctionalInterface
    private interface Narrower {
        Object narrow(Object value);
    }

    /** The narrower from {@code wide} to {@code narrow}, or {@code null} when they are equal. */
    private static Narrower narrower(
            Type narrow, Type wide, LogicalType wideLogical, String path, String file) {
        if (narrow.equals(wide)) {
            return null;
        }
        switch (narrow.typeId()) {
            case STRUCT:
                return struct(
                        narrow.asStructType(),
                        wide.asStructType(),
                        (RowType) wideLogical,
                        path + ".",
                        file);
            case LIST:
                {
                    LogicalType elementType = ((ArrayType) wideLogical).getElementType();
                    Narrower element =
                            narrower(
                                    narrow.asListType().elementType(),
                                    wide.asListType().elementType(),
                                    elementType,
                                    path + ".element",
                                    file);
                    ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
                    return value -> {
                        ArrayData array = (ArrayData) value;
                        Object[] out = new Object[array.size()];
                        for (int i = 0; i < out.length; i++) {
                            Object item = getter.getElementOrNull(array, i);
                            out[i] = item == null ? null : element.narrow(item);
                        }
                        return new GenericArrayData(out);
                    };
                }
            case MAP:
                {
                    MapType mapType = (MapType) wideLogical;
                    Narrower key =
                            narrower(
                                    narrow.asMapType().keyType(),
                                    wide.asMapType().keyType(),
                                    mapType.getKeyType(),
                                    path + ".key",
                                    file);
                    Narrower value =
                            narrower(
                                    narrow.asMapType().valueType(),
                                    wide.asMapType().valueType(),
                                    mapType.getValueType(),
                                    path + ".value",
                                    file);
                    ArrayData.ElementGetter keys =
                            ArrayData.createElementGetter(mapType.getKeyType());
                    ArrayData.ElementGetter values =
                            ArrayData.createElementGetter(mapType.getValueType());
                    return data -> {
                        MapData map = (MapData) data;
                        ArrayData keyArray = map.keyArray();
                        ArrayData valueArray = map.valueArray();
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (int i = 0; i < map.size(); i++) {
                            Object k = keys.getElementOrNull(keyArray, i);
                            Object v = values.getElementOrNull(valueArray, i);
                            out.put(
                                    k == null || key == null ? k : key.narrow(k),
                                    v == null || value == null ? v : value.narrow(v));
                        }
                        return new GenericMapData(out);
                    };
                }
            case INTEGER:
                return value -> {
                    long wideValue = (Long) value;
                    if (wideValue != (int) wideValue) {
                        throw doesNotFit(path, file, wideValue, narrow, wide);
                    }
                    return (int) wideValue;
                };
            case FLOAT:
                return value -> {
                    double wideValue = (Double) value;
                    float narrowed = (float) wideValue;
                    if (Float.isInfinite(narrowed) && !Double.isInfinite(wideValue)) {
                        throw doesNotFit(path, file, wideValue, narrow, wide);
                    }
                    return narrowed;
                };
            case DECIMAL:
                {
                    Types.DecimalType decimal = (Types.DecimalType) narrow;
                    return value -> {
                        DecimalData wideValue = (DecimalData) value;
                        DecimalData narrowed =
                                DecimalData.fromBigDecimal(
                                        wideValue.toBigDecimal(),
                                        decimal.precision(),
                                        decimal.scale());
                        if (narrowed == null) {
                            throw doesNotFit(path, file, wideValue, narrow, wide);
                        }
                        return narrowed;
                    };
                }
            default:
                throw new IllegalStateException(
                        String.format(
                                "Cannot read column '%s' of type %s as %s", path, wide, narrow));
        }
    }

    private static Narrower struct(
            Types.StructType narrow,
            Types.StructType wide,
            RowType wideLogical,
            String prefix,
            String file) {
        List<Types.NestedField> fields = narrow.fields();
        int width = fields.size();
        RowData.FieldGetter[] getters = new RowData.FieldGetter[width];
        Narrower[] narrowers = new Narrower[width];
        for (int i = 0; i < width; i++) {
            Types.NestedField field = fields.get(i);
            LogicalType type = wideLogical.getTypeAt(i);
            getters[i] = RowData.createFieldGetter(type, i);
            narrowers[i] =
                    narrower(
                            field.type(),
                            wide.fields().get(i).type(),
                            type,
                            prefix + field.name(),
                            file);
        }
        return value -> {
            RowData row = (RowData) value;
            GenericRowData out = new GenericRowData(width);
            for (int i = 0; i < width; i++) {
                Object item = getters[i].getFieldOrNull(row);
                out.setField(
                        i, item == null || narrowers[i] == null ? item : narrowers[i].narrow(item));
            }
            return out;
        };
    }

    private static RuntimeException doesNotFit(
            String column, String file, Object value, Type narrow, Type wide) {
        return new SuppressRestartsException(
                new IllegalStateException(
                        String.format(
                                "Column '%s' of %s holds %s, which does not fit the type %s this"
                                        + " read was built with: the column was widened to %s"
                                        + " after the read started. Build the read again (start"
                                        + " the job anew; restoring its savepoint is fine) to read"
                                        + " the column with its new type.",
                                column, file, value, narrow, wide)));
    }
}
