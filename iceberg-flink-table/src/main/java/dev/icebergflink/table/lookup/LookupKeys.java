package dev.icebergflink.table.lookup;

import dev.icebergflink.data.row.RowDataStructLike;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The columns a lookup join looks rows up by, and the three forms a key takes: the key of a cached
 * row, the key the join asks for, and an Iceberg filter that finds the files that can hold it.
 *
 * <p>It exists so that the cache and the file lookup agree on what a key is. Keys are compared as
 * {@link GenericRowData} of Flink's internal values in the declared types (content equality for
 * strings, binaries, decimals and timestamps), so a cached row and a probe key with the same values
 * always meet. A key with a {@code NULL} (or a floating-point NaN) matches nothing, as {@code =}
 * does in SQL.
 */
@Internal
public final class LookupKeys implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int[] positions;
    private final LogicalType[] types;
    private final Types.NestedField[] columns;

    private transient RowData.FieldGetter[] rowGetters;
    private transient RowData.FieldGetter[] keyGetters;
    private transient RowDataStructLike[] icebergValues;

    /**
     * @param produced the declared type of the rows the join receives
     * @param projected the Iceberg columns behind {@code produced}, in the same order
     * @param positions the positions of the key columns in {@code produced}
     */
    public LookupKeys(RowType produced, Schema projected, int[] positions) {
        this.positions = positions.clone();
        this.types = new LogicalType[positions.length];
        this.columns = new Types.NestedField[positions.length];
        List<Types.NestedField> projectedColumns = projected.columns();
        for (int i = 0; i < positions.length; i++) {
            // nullable: a probe key may be NULL even where the column is NOT NULL (and Flink
            // 1.20's getters of NOT NULL types do not check)
            types[i] = produced.getTypeAt(positions[i]).copy(true);
            columns[i] = projectedColumns.get(positions[i]);
        }
    }

    /** The number of key columns. */
    public int size() {
        return positions.length;
    }

    /** The Iceberg names of the key columns, for messages. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (Types.NestedField column : columns) {
            names.add(column.name());
        }
        return names;
    }

    /** The key of a row of the produced type, or {@code null} when it cannot match any key. */
    public GenericRowData ofRow(RowData row) {
        return extract(row, rowGetters());
    }

    /** The key the join asks for (its fields in key order), or {@code null} if it matches none. */
    public GenericRowData ofLookup(RowData key) {
        return extract(key, keyGetters());
    }

    private GenericRowData extract(RowData row, RowData.FieldGetter[] getters) {
        GenericRowData key = new GenericRowData(getters.length);
        for (int i = 0; i < getters.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            if (value == null || isNaN(value)) {
                return null;
            }
            key.setField(i, value);
        }
        return key;
    }

    private static boolean isNaN(Object value) {
        return (value instanceof Double d && d.isNaN()) || (value instanceof Float f && f.isNaN());
    }

    /**
     * The Iceberg filter of the rows with this key (from {@link #ofLookup}): one equality per key
     * column whose value Iceberg can compare. A column it cannot (a declared type that differs from
     * the Iceberg type in representation, nanosecond timestamps) is left out; the rows read are
     * compared with the key anyway.
     */
    public Expression filter(GenericRowData key) {
        RowDataStructLike[] views = icebergValues();
        Expression filter = Expressions.alwaysTrue();
        for (int i = 0; i < views.length; i++) {
            if (views[i] == null) {
                continue;
            }
            Object value = views[i].wrap(GenericRowData.of(key.getField(i))).get(0, Object.class);
            filter = Expressions.and(filter, Expressions.equal(columns[i].name(), value));
        }
        return filter;
    }

    private RowData.FieldGetter[] rowGetters() {
        if (rowGetters == null) {
            RowData.FieldGetter[] getters = new RowData.FieldGetter[positions.length];
            for (int i = 0; i < positions.length; i++) {
                getters[i] = RowData.createFieldGetter(types[i], positions[i]);
            }
            rowGetters = getters;
        }
        return rowGetters;
    }

    private RowData.FieldGetter[] keyGetters() {
        if (keyGetters == null) {
            RowData.FieldGetter[] getters = new RowData.FieldGetter[positions.length];
            for (int i = 0; i < positions.length; i++) {
                getters[i] = RowData.createFieldGetter(types[i], i);
            }
            keyGetters = getters;
        }
        return keyGetters;
    }

    private RowDataStructLike[] icebergValues() {
        if (icebergValues == null) {
            RowDataStructLike[] views = new RowDataStructLike[positions.length];
            for (int i = 0; i < positions.length; i++) {
                views[i] = comparableView(columns[i], types[i]);
            }
            icebergValues = views;
        }
        return icebergValues;
    }

    private static RowDataStructLike comparableView(Types.NestedField column, LogicalType type) {
        if (column.type().typeId() == Type.TypeID.TIMESTAMP_NANO
                || !column.type().isPrimitiveType()) {
            return null;
        }
        try {
            return new RowDataStructLike(
                    Types.StructType.of(Types.NestedField.optional(1, "key", column.type())),
                    RowType.of(type));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
