package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.RequiredFieldCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.TripleWriter;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.schema.MessageType;

/**
 * Writes the top-level rows of a Parquet file: primitive columns through {@link
 * ParquetDirectColumn} straight from the row, every other field through its value writer.
 *
 * <p>It replaces Iceberg's struct writer only at the top of the file, where most of the values of a
 * table are and where the levels are trivial; nested rows keep {@link ParquetNestedWriters}. Like
 * the struct writer it skips Iceberg fields of type unknown, which have no Parquet column, and it
 * applies the file's {@link RequiredFieldCheck} before any value of a row is written.
 */
final class ParquetTopLevelRowWriter implements ParquetValueWriter<RowData> {

    /** The row position of each written field: fields of type unknown have no column. */
    private final int[] positions;

    /** The direct column of each written field, or null where the field has a value writer. */
    private final ParquetDirectColumn[] direct;

    /** The value writer of each written field that has no direct column (null elsewhere). */
    private final ParquetValueWriter<Object>[] writers;

    private final RowData.FieldGetter[] getters;
    private final RequiredFieldCheck requiredFields;

    /**
     * @param struct the Iceberg struct of the file (the schema's)
     * @param message the Parquet file schema
     * @param rowType the Flink type of the rows; its fields match the struct's by position
     * @param optionWriters the value writer of each field that has a column, in the order of the
     *     file schema's fields, wrapped to write nulls
     * @param requiredFields the check of each row, or null
     */
    @SuppressWarnings("unchecked")
    ParquetTopLevelRowWriter(
            Types.StructType struct,
            MessageType message,
            RowType rowType,
            List<ParquetValueWriter<?>> optionWriters,
            RequiredFieldCheck requiredFields) {
        int count = optionWriters.size();
        this.positions = new int[count];
        this.direct = new ParquetDirectColumn[count];
        this.writers = new ParquetValueWriter[count];
        this.getters = new RowData.FieldGetter[count];
        this.requiredFields =
                requiredFields != null && requiredFields.checksAnything() ? requiredFields : null;
        List<Types.NestedField> fields = struct.fields();
        int written = 0;
        for (int pos = 0; pos < fields.size(); pos++) {
            Type type = fields.get(pos).type();
            if (type.typeId() == Type.TypeID.UNKNOWN) {
                continue;
            }
            positions[written] = pos;
            org.apache.parquet.schema.Type column = message.getType(written);
            direct[written] =
                    column.isPrimitive()
                            ? ParquetDirectColumn.forField(
                                    type,
                                    rowType.getTypeAt(pos),
                                    message.getColumnDescription(new String[] {column.getName()}),
                                    fields.get(pos).fieldId())
                            : null;
            if (direct[written] == null) {
                writers[written] = (ParquetValueWriter<Object>) optionWriters.get(written);
                getters[written] = RowData.createFieldGetter(rowType.getTypeAt(pos), pos);
            }
            written++;
        }
        if (written != count) {
            throw new IllegalArgumentException(
                    String.format(
                            "The struct %s has %d fields with a Parquet column but %d writers were"
                                    + " given",
                            struct, written, count));
        }
    }

    @Override
    public void write(int repetitionLevel, RowData row) {
        if (requiredFields != null) {
            requiredFields.check(row);
        }
        for (int i = 0; i < positions.length; i++) {
            ParquetDirectColumn column = direct[i];
            if (column != null) {
                column.write(row, positions[i]);
            } else {
                writers[i].write(repetitionLevel, getters[i].getFieldOrNull(row));
            }
        }
    }

    /**
     * Not available: the columns of a writer are asked for by an enclosing writer, and the
     * top-level row of a file has none.
     */
    @Override
    public List<TripleWriter<?>> columns() {
        throw new UnsupportedOperationException(
                "The top-level row writer of a Parquet file is never nested in another writer");
    }

    @Override
    public void setColumnStore(ColumnWriteStore columnStore) {
        for (int i = 0; i < positions.length; i++) {
            if (direct[i] != null) {
                direct[i].setColumnStore(columnStore);
            } else {
                writers[i].setColumnStore(columnStore);
            }
        }
    }

    @Override
    public Stream<FieldMetrics<?>> metrics() {
        List<Stream<FieldMetrics<?>>> all = new ArrayList<>(positions.length);
        for (int i = 0; i < positions.length; i++) {
            all.add(direct[i] != null ? direct[i].metrics() : writers[i].metrics());
        }
        return all.stream().flatMap(metrics -> metrics);
    }

    /** How many fields are written through direct columns (for tests). */
    int directColumnCount() {
        int count = 0;
        for (ParquetDirectColumn column : direct) {
            count += column != null ? 1 : 0;
        }
        return count;
    }
}
