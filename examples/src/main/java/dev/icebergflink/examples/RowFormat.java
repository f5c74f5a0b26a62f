package dev.icebergflink.examples;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;

/**
 * How the examples show a {@link RowData} of a known row type: as a changelog line the way the SQL
 * client prints one ({@code +I[1, books, ...]}), or as the values of a {@link TextTable} row. It
 * exists so that every example (and its test) reads the fields of a row the same way.
 */
public final class RowFormat {

    private final RowData.FieldGetter[] getters;

    /** The format of rows of {@code type}. */
    public RowFormat(RowType type) {
        this.getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(type.getTypeAt(i), i);
        }
    }

    /** The format of the rows Iceberg's readers produce for {@code schema}. */
    public static RowFormat of(Schema schema) {
        return new RowFormat(FlinkSchemaUtil.convert(schema));
    }

    /** The row as a changelog line: its kind, then its fields, e.g. {@code -U[2, Ana, Oslo, 7]}. */
    public String changelogLine(RowData row) {
        List<String> values = new ArrayList<>(getters.length);
        for (RowData.FieldGetter getter : getters) {
            values.add(String.valueOf(getter.getFieldOrNull(row)));
        }
        return row.getRowKind().shortString() + "[" + String.join(", ", values) + "]";
    }

    /** The row's fields as Java values for {@link TextTable#addRow}; strings become Strings. */
    public Object[] values(RowData row) {
        Object[] values = new Object[getters.length];
        for (int i = 0; i < getters.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            values[i] = value instanceof StringData ? value.toString() : value;
        }
        return values;
    }
}
