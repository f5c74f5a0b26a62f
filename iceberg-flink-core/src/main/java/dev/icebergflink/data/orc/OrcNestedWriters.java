package dev.icebergflink.data.orc;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FieldMetrics;
import org.apache.orc.storage.ql.exec.vector.ColumnVector;
import org.apache.orc.storage.ql.exec.vector.ListColumnVector;
import org.apache.orc.storage.ql.exec.vector.MapColumnVector;
import org.apache.orc.storage.ql.exec.vector.StructColumnVector;

/**
 * The ORC writers of Flink's nested values: a {@link RowData} into a struct vector, an {@link
 * ArrayData} into a list vector, a {@link MapData} (or MULTISET) into a map vector. {@link
 * OrcRowDataWriter} builds them around the writers of their fields, elements, keys and values, and
 * writes every top-level row through one {@link StructWriter}.
 *
 * <p>They are apart from the {@link OrcLeafWriters} because their job is different: they place
 * values (offsets and lengths of lists and maps, child vectors grown on demand) and hand every
 * primitive to a leaf writer, which reads it from the Flink container with its typed getter. Field
 * metrics are the leaf writers', collected through these writers.
 */
final class OrcNestedWriters {

    private OrcNestedWriters() {}

    static OrcFieldWriter<RowData> struct(List<OrcFieldWriter<?>> fieldWriters) {
        int[] positions = new int[fieldWriters.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = i;
        }
        return new StructWriter(fieldWriters, positions, positions.length);
    }

    /**
     * A writer of the stored fields of rows of {@code rowArity} fields: {@code fieldWriters[i]}
     * writes the field at {@code rowPositions[i]} into the i-th ORC field. Fields that are not
     * stored (Iceberg {@code unknown} columns, which ORC files leave out) have no writer.
     */
    static OrcFieldWriter<RowData> struct(
            List<OrcFieldWriter<?>> fieldWriters, int[] rowPositions, int rowArity) {
        return new StructWriter(fieldWriters, rowPositions, rowArity);
    }

    static OrcFieldWriter<ArrayData> list(OrcFieldWriter<?> elementWriter) {
        return new ListWriter(elementWriter);
    }

    /** Flink MAP, and MULTISET (a map of element to int count). */
    static OrcFieldWriter<MapData> map(OrcFieldWriter<?> keyWriter, OrcFieldWriter<?> valueWriter) {
        return new MapWriter(keyWriter, valueWriter);
    }

    /** Grows a child vector of a list or map so that it holds at least {@code size} rows. */
    private static void ensureCapacity(ColumnVector vector, int size) {
        int capacity = vector.isNull.length;
        if (capacity < size) {
            vector.ensureSize(Math.max(size, capacity * 2), true);
        }
    }

    /** Writes a Flink row into a struct vector, field by field in position order. */
    static final class StructWriter extends OrcFieldWriter<RowData> {
        private final OrcFieldWriter<?>[] fieldWriters;
        private final int[] rowPositions;
        private final int rowArity;

        private StructWriter(
                List<OrcFieldWriter<?>> fieldWriters, int[] rowPositions, int rowArity) {
            this.fieldWriters = fieldWriters.toArray(new OrcFieldWriter<?>[0]);
            this.rowPositions = rowPositions;
            this.rowArity = rowArity;
        }

        List<OrcFieldWriter<?>> fieldWriters() {
            return Arrays.asList(fieldWriters);
        }

        /** Writes every field of {@code row} into row {@code rowId} of the field vectors. */
        void writeFields(int rowId, RowData row, ColumnVector[] fieldVectors) {
            for (int i = 0; i < fieldWriters.length; i++) {
                fieldWriters[i].writeField(rowId, row, rowPositions[i], fieldVectors[i]);
            }
        }

        @Override
        public void nonNullWrite(int rowId, RowData data, ColumnVector output) {
            writeFields(rowId, data, ((StructColumnVector) output).fields);
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getRow(pos, rowArity), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getRow(pos, rowArity), output);
        }

        @Override
        public Stream<FieldMetrics<?>> metrics() {
            return Arrays.stream(fieldWriters).flatMap(OrcFieldWriter::metrics);
        }
    }

    private static final class ListWriter extends OrcFieldWriter<ArrayData> {
        private final OrcFieldWriter<?> elementWriter;

        private ListWriter(OrcFieldWriter<?> elementWriter) {
            this.elementWriter = elementWriter;
        }

        @Override
        public void nonNullWrite(int rowId, ArrayData data, ColumnVector output) {
            ListColumnVector vector = (ListColumnVector) output;
            int size = data.size();
            int offset = vector.childCount;
            vector.offsets[rowId] = offset;
            vector.lengths[rowId] = size;
            vector.childCount = offset + size;
            ensureCapacity(vector.child, vector.childCount);
            for (int i = 0; i < size; i++) {
                elementWriter.writeElement(offset + i, data, i, vector.child);
            }
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getArray(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getArray(pos), output);
        }

        @Override
        public Stream<FieldMetrics<?>> metrics() {
            return elementWriter.metrics();
        }
    }

    private static final class MapWriter extends OrcFieldWriter<MapData> {
        private final OrcFieldWriter<?> keyWriter;
        private final OrcFieldWriter<?> valueWriter;

        private MapWriter(OrcFieldWriter<?> keyWriter, OrcFieldWriter<?> valueWriter) {
            this.keyWriter = keyWriter;
            this.valueWriter = valueWriter;
        }

        @Override
        public void nonNullWrite(int rowId, MapData data, ColumnVector output) {
            MapColumnVector vector = (MapColumnVector) output;
            int size = data.size();
            int offset = vector.childCount;
            vector.offsets[rowId] = offset;
            vector.lengths[rowId] = size;
            vector.childCount = offset + size;
            ensureCapacity(vector.keys, vector.childCount);
            ensureCapacity(vector.values, vector.childCount);
            ArrayData keys = data.keyArray();
            ArrayData values = data.valueArray();
            for (int i = 0; i < size; i++) {
                keyWriter.writeElement(offset + i, keys, i, vector.keys);
                valueWriter.writeElement(offset + i, values, i, vector.values);
            }
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getMap(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getMap(pos), output);
        }

        @Override
        public Stream<FieldMetrics<?>> metrics() {
            return Stream.concat(keyWriter.metrics(), valueWriter.metrics());
        }
    }
}
