package dev.icebergflink.data.parquet;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.parquet.ParquetValueReader;
import org.apache.iceberg.parquet.ParquetValueReaders;

/**
 * The Parquet value readers of nested values as Flink's internal data structures: {@link
 * GenericRowData} for structs, {@link GenericArrayData} for lists and {@link GenericMapData} for
 * maps (their primitive values come from {@link ParquetLeafReaders}; top-level rows are built by
 * {@link ParquetBinaryRowReader}).
 *
 * <p>All of them extend Iceberg's {@link ParquetValueReaders} building blocks, which handle
 * definition and repetition levels and nulls. A row passed in for reuse is filled in place (with
 * its nested rows); lists and maps are always new objects, so rows handed out without reuse never
 * share state.
 */
final class ParquetNestedReaders {

    private ParquetNestedReaders() {}

    static ParquetValueReader<RowData> row(List<ParquetValueReader<?>> readers, int arity) {
        return new RowDataReader(readers, arity);
    }

    static ParquetValueReader<ArrayData> array(
            int definitionLevel, int repetitionLevel, ParquetValueReader<?> elementReader) {
        return new ArrayDataReader(definitionLevel, repetitionLevel, elementReader);
    }

    static ParquetValueReader<MapData> map(
            int definitionLevel,
            int repetitionLevel,
            ParquetValueReader<?> keyReader,
            ParquetValueReader<?> valueReader) {
        return new MapDataReader(definitionLevel, repetitionLevel, keyReader, valueReader);
    }

    /** Reads a struct into a {@link GenericRowData}, reusing the given row when there is one. */
    private static final class RowDataReader
            extends ParquetValueReaders.StructReader<RowData, GenericRowData> {
        private final int arity;

        private RowDataReader(List<ParquetValueReader<?>> readers, int arity) {
            super(readers);
            this.arity = arity;
        }

        @Override
        protected GenericRowData newStructData(RowData reuse) {
            if (reuse instanceof GenericRowData && reuse.getArity() == arity) {
                return (GenericRowData) reuse;
            }
            return new GenericRowData(arity);
        }

        @Override
        protected Object getField(GenericRowData row, int pos) {
            return row.getField(pos);
        }

        @Override
        protected RowData buildStruct(GenericRowData row) {
            return row;
        }

        @Override
        protected void set(GenericRowData row, int pos, Object value) {
            row.setField(pos, value);
        }
    }

    /** A growable buffer of elements, kept by a list reader and reused for every list it reads. */
    private static final class ElementBuffer {
        private Object[] elements = new Object[8];
        private int size;

        void clear() {
            Arrays.fill(elements, 0, size, null);
            size = 0;
        }

        void add(Object element) {
            if (size == elements.length) {
                elements = Arrays.copyOf(elements, size * 2);
            }
            elements[size++] = element;
        }

        Object[] copy() {
            return Arrays.copyOf(elements, size);
        }
    }

    private static final class ArrayDataReader
            extends ParquetValueReaders.RepeatedReader<ArrayData, ElementBuffer, Object> {
        private final ElementBuffer buffer = new ElementBuffer();

        @SuppressWarnings("unchecked")
        private ArrayDataReader(
                int definitionLevel, int repetitionLevel, ParquetValueReader<?> reader) {
            super(definitionLevel, repetitionLevel, (ParquetValueReader<Object>) reader);
        }

        @Override
        protected ElementBuffer newListData(ArrayData reuse) {
            buffer.clear();
            return buffer;
        }

        @Override
        protected Object getElement(ElementBuffer list) {
            return null;
        }

        @Override
        protected void addElement(ElementBuffer list, Object element) {
            list.add(element);
        }

        @Override
        protected ArrayData buildList(ElementBuffer list) {
            return new GenericArrayData(list.copy());
        }
    }

    /** Keys and values read so far, kept by a map reader and reused for every map it reads. */
    private static final class EntryBuffer {
        private final ElementBuffer keys = new ElementBuffer();
        private final ElementBuffer values = new ElementBuffer();
        private final ParquetValueReaders.ReusableEntry<Object, Object> entry =
                new ParquetValueReaders.ReusableEntry<>();
    }

    private static final class MapDataReader
            extends ParquetValueReaders.RepeatedKeyValueReader<
                    MapData, EntryBuffer, Object, Object> {
        private final EntryBuffer buffer = new EntryBuffer();

        @SuppressWarnings("unchecked")
        private MapDataReader(
                int definitionLevel,
                int repetitionLevel,
                ParquetValueReader<?> keyReader,
                ParquetValueReader<?> valueReader) {
            super(
                    definitionLevel,
                    repetitionLevel,
                    (ParquetValueReader<Object>) keyReader,
                    (ParquetValueReader<Object>) valueReader);
        }

        @Override
        protected EntryBuffer newMapData(MapData reuse) {
            buffer.keys.clear();
            buffer.values.clear();
            return buffer;
        }

        @Override
        protected Map.Entry<Object, Object> getPair(EntryBuffer map) {
            map.entry.set(null, null);
            return map.entry;
        }

        @Override
        protected void addPair(EntryBuffer map, Object key, Object value) {
            map.keys.add(key);
            map.values.add(value);
        }

        @Override
        protected MapData buildMap(EntryBuffer map) {
            int size = map.keys.size;
            Map<Object, Object> entries = new LinkedHashMap<>(Math.max(4, size * 4 / 3 + 1));
            for (int i = 0; i < size; i++) {
                entries.put(map.keys.elements[i], map.values.elements[i]);
            }
            return new GenericMapData(entries);
        }
    }
}
