package dev.icebergflink.data.parquet;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.ParquetValueWriters;
import org.apache.iceberg.types.Types;

/**
 * The Parquet writers of Flink's nested values: struct, list and map writers over {@link RowData},
 * {@link ArrayData} and {@link MapData} (or MULTISET). {@link ParquetRowDataWriters} builds them
 * around the writers of their fields, elements, keys and values, which are Iceberg's own writers or
 * {@link ParquetLeafWriters}.
 *
 * <p>They extend Iceberg's {@link ParquetValueWriters} struct and repeated writers, which handle
 * definition and repetition levels and nulls; what they add is how a value is taken out of Flink's
 * containers. Field getters are created once per writer; iterators and map entries are reused
 * across values. The top-level row of a file has a writer of its own, {@link
 * ParquetTopLevelRowWriter}.
 */
final class ParquetNestedWriters {

    private ParquetNestedWriters() {}

    /** A writer of the fields of a nested row. */
    static ParquetValueWriter<RowData> row(
            Types.StructType struct, RowType rowType, List<ParquetValueWriter<?>> writers) {
        return new RowDataWriter(struct, rowType, writers);
    }

    static ParquetValueWriter<ArrayData> array(
            int definitionLevel,
            int repetitionLevel,
            ParquetValueWriter<?> elementWriter,
            LogicalType elementType) {
        return new ArrayDataWriter(definitionLevel, repetitionLevel, elementWriter, elementType);
    }

    static ParquetValueWriter<MapData> map(
            int definitionLevel,
            int repetitionLevel,
            ParquetValueWriter<?> keyWriter,
            ParquetValueWriter<?> valueWriter,
            LogicalType keyType,
            LogicalType valueType) {
        return new MapDataWriter(
                definitionLevel, repetitionLevel, keyWriter, valueWriter, keyType, valueType);
    }

    /** Writes the fields of a {@link RowData}, read with getters built once from the row type. */
    private static final class RowDataWriter extends ParquetValueWriters.StructWriter<RowData> {
        private final RowData.FieldGetter[] getters;

        private RowDataWriter(
                Types.StructType struct, RowType rowType, List<ParquetValueWriter<?>> writers) {
            super(struct, writers);
            this.getters = new RowData.FieldGetter[rowType.getFieldCount()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
            }
        }

        @Override
        protected Object get(RowData row, int index) {
            return getters[index].getFieldOrNull(row);
        }
    }

    /** Writes the elements of an {@link ArrayData} through one reused iterator. */
    private static final class ArrayDataWriter
            extends ParquetValueWriters.RepeatedWriter<ArrayData, Object> {
        private final ElementIterator iterator;

        @SuppressWarnings("unchecked")
        private ArrayDataWriter(
                int definitionLevel,
                int repetitionLevel,
                ParquetValueWriter<?> writer,
                LogicalType elementType) {
            super(definitionLevel, repetitionLevel, (ParquetValueWriter<Object>) writer);
            this.iterator = new ElementIterator(ArrayData.createElementGetter(elementType));
        }

        @Override
        protected Iterator<Object> elements(ArrayData array) {
            iterator.reset(array);
            return iterator;
        }
    }

    /** Writes the entries of a {@link MapData} (or MULTISET) through one reused iterator. */
    private static final class MapDataWriter
            extends ParquetValueWriters.RepeatedKeyValueWriter<MapData, Object, Object> {
        private final EntryIterator iterator;

        @SuppressWarnings("unchecked")
        private MapDataWriter(
                int definitionLevel,
                int repetitionLevel,
                ParquetValueWriter<?> keyWriter,
                ParquetValueWriter<?> valueWriter,
                LogicalType keyType,
                LogicalType valueType) {
            super(
                    definitionLevel,
                    repetitionLevel,
                    (ParquetValueWriter<Object>) keyWriter,
                    (ParquetValueWriter<Object>) valueWriter);
            this.iterator =
                    new EntryIterator(
                            ArrayData.createElementGetter(keyType),
                            ArrayData.createElementGetter(valueType));
        }

        @Override
        protected Iterator<Map.Entry<Object, Object>> pairs(MapData map) {
            iterator.reset(map);
            return iterator;
        }
    }

    private static final class ElementIterator implements Iterator<Object> {
        private final ArrayData.ElementGetter getter;
        private ArrayData array;
        private int size;
        private int index;

        private ElementIterator(ArrayData.ElementGetter getter) {
            this.getter = getter;
        }

        void reset(ArrayData newArray) {
            this.array = newArray;
            this.size = newArray.size();
            this.index = 0;
        }

        @Override
        public boolean hasNext() {
            return index < size;
        }

        @Override
        public Object next() {
            if (index >= size) {
                throw new NoSuchElementException();
            }
            return getter.getElementOrNull(array, index++);
        }
    }

    /** Iterates map entries, handing out the same mutable entry each time. */
    private static final class EntryIterator
            implements Iterator<Map.Entry<Object, Object>>, Map.Entry<Object, Object> {
        private final ArrayData.ElementGetter keyGetter;
        private final ArrayData.ElementGetter valueGetter;
        private ArrayData keys;
        private ArrayData values;
        private int size;
        private int index;
        private Object key;
        private Object value;

        private EntryIterator(
                ArrayData.ElementGetter keyGetter, ArrayData.ElementGetter valueGetter) {
            this.keyGetter = keyGetter;
            this.valueGetter = valueGetter;
        }

        void reset(MapData map) {
            this.keys = map.keyArray();
            this.values = map.valueArray();
            this.size = map.size();
            this.index = 0;
        }

        @Override
        public boolean hasNext() {
            return index < size;
        }

        @Override
        public Map.Entry<Object, Object> next() {
            if (index >= size) {
                throw new NoSuchElementException();
            }
            key = keyGetter.getElementOrNull(keys, index);
            value = valueGetter.getElementOrNull(values, index);
            index++;
            return this;
        }

        @Override
        public Object getKey() {
            return key;
        }

        @Override
        public Object getValue() {
            return value;
        }

        @Override
        public Object setValue(Object newValue) {
            throw new UnsupportedOperationException("Map entries being written are read-only");
        }
    }
}
