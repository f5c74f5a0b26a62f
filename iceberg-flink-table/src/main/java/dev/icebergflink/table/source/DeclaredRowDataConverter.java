package dev.icebergflink.table.source;

import dev.icebergflink.source.reader.RowDataConverter;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * Turns the rows the Iceberg source reads into rows of the types the SQL table declares (see {@link
 * DeclaredTypes} for what is accepted).
 *
 * <p>It exists so that a connector table declared with, say, {@code TINYINT} over an Iceberg {@code
 * int} receives {@code byte} values, as Flink's generated code expects. When no column needs a
 * conversion the rows pass through unchanged; otherwise each row is copied once.
 */
@Internal
public final class DeclaredRowDataConverter implements RowDataConverter<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType declared;
    private final String[] names;
    private final DeclaredTypes.Conversion[] conversions;
    private final RowData.FieldGetter[] getters;
    private final boolean identity;

    /**
     * @param tableName the table, for messages
     * @param icebergSide the Flink type of the rows read (from the Iceberg schema)
     * @param declared the declared row type, with the same fields in the same order
     */
    public DeclaredRowDataConverter(String tableName, RowType icebergSide, RowType declared) {
        if (icebergSide.getFieldCount() != declared.getFieldCount()) {
            throw new IllegalArgumentException(
                    "Read type " + icebergSide + " and declared type " + declared + " differ");
        }
        this.declared = declared;
        int count = declared.getFieldCount();
        this.names = declared.getFieldNames().toArray(new String[0]);
        this.conversions = new DeclaredTypes.Conversion[count];
        this.getters = new RowData.FieldGetter[count];
        boolean allNone = true;
        for (int i = 0; i < count; i++) {
            conversions[i] =
                    DeclaredTypes.conversion(
                            tableName, names[i], declared.getTypeAt(i), icebergSide.getTypeAt(i));
            getters[i] = RowData.createFieldGetter(icebergSide.getTypeAt(i), i);
            allNone &= conversions[i] == DeclaredTypes.Conversion.NONE;
        }
        this.identity = allNone;
    }

    /** Whether rows pass through unchanged. */
    public boolean isIdentity() {
        return identity;
    }

    @Override
    public RowData convert(RowData row) {
        if (identity) {
            return row;
        }
        GenericRowData converted = new GenericRowData(row.getRowKind(), conversions.length);
        for (int i = 0; i < conversions.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            converted.setField(i, value == null ? null : convert(i, value));
        }
        return converted;
    }

    private Object convert(int index, Object value) {
        switch (conversions[index]) {
            case INT_TO_TINYINT:
                int b = (Integer) value;
                if (b < Byte.MIN_VALUE || b > Byte.MAX_VALUE) {
                    throw outOfRange(index, b);
                }
                return (byte) b;
            case INT_TO_SMALLINT:
                int s = (Integer) value;
                if (s < Short.MIN_VALUE || s > Short.MAX_VALUE) {
                    throw outOfRange(index, s);
                }
                return (short) s;
            case INT_TO_BIGINT:
                return (long) (Integer) value;
            case FLOAT_TO_DOUBLE:
                return (double) (Float) value;
            case TIMESTAMP_LAYOUT: // the TimestampData is kept; the generic row holds it as is
            case NONE:
            default:
                return value;
        }
    }

    private IllegalArgumentException outOfRange(int index, int value) {
        return new IllegalArgumentException(
                String.format(
                        "Column '%s' holds %d, which does not fit its declared type %s; declare"
                                + " the column with a wider type (e.g. INT)",
                        names[index], value, declared.getTypeAt(index).asSummaryString()));
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(declared);
    }

    /** Converted rows take the kind of the row read. */
    @Override
    public boolean keepsRowKind() {
        return true;
    }
}
