package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.BinaryRowBatchBuilder;
import dev.icebergflink.data.row.BinaryRowBuilder;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Set;
import org.apache.flink.formats.parquet.vector.reader.BooleanColumnReader;
import org.apache.flink.formats.parquet.vector.reader.BytesColumnReader;
import org.apache.flink.formats.parquet.vector.reader.DoubleColumnReader;
import org.apache.flink.formats.parquet.vector.reader.FloatColumnReader;
import org.apache.flink.formats.parquet.vector.reader.IntColumnReader;
import org.apache.flink.formats.parquet.vector.reader.LongColumnReader;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Top-level primitive columns of a Parquet file decoded a batch of values at a time by Flink's
 * columnar Parquet decoders ({@code flink-parquet}), then handed out one value per row straight
 * into a {@link BinaryRowBuilder} field.
 *
 * <p>They exist because Parquet's own column reader, which the row-at-a-time path goes through,
 * decodes one value per call (a definition level from its run-length decoder, then a dictionary id
 * or a plain value, each behind several virtual calls), and that decoding was about half of a
 * source fetcher's time. Flink's decoders read whole runs of definition levels and values into
 * arrays. Rows are still assembled one at a time, because the source hands Flink binary rows (one
 * array copy between operators).
 *
 * <p>Flink's decoders understand plain and dictionary encodings only, so {@link
 * ParquetBatchedColumn#decodes} is asked for each column chunk; the row reader keeps Parquet's
 * value-at-a-time reader for chunks with other encodings (delta encodings of v2 pages, say), and
 * for the types not taken here: fixed-length values, INT96 timestamps and decimals in binaries.
 */
final class ParquetBatchedColumns {

    private ParquetBatchedColumns() {}

    /**
     * The batched column that reads {@code desc} as values of {@code expected}, or null when the
     * pair is left to the row-at-a-time reader. Only top-level columns may be given: the decoders
     * handle definition levels of at most one and no repetition.
     */
    static ParquetBatchedColumn<?> forColumn(Type.PrimitiveType expected, ColumnDescriptor desc) {
        if (desc.getMaxRepetitionLevel() != 0 || desc.getMaxDefinitionLevel() > 1) {
            return null;
        }
        PrimitiveType prim = desc.getPrimitiveType();
        PrimitiveTypeName physical = prim.getPrimitiveTypeName();
        switch (expected.typeId()) {
            case BOOLEAN:
                return physical == PrimitiveTypeName.BOOLEAN ? new BooleanColumn(desc) : null;
            case INTEGER:
            case DATE:
                return physical == PrimitiveTypeName.INT32
                        ? new IntColumn(desc, BinaryRowBuilder::setInt, AsBatch.INT)
                        : null;
            case LONG:
                if (physical == PrimitiveTypeName.INT64) {
                    return new LongColumn(desc, BinaryRowBuilder::setLong, AsBatch.LONG, null);
                }
                return physical == PrimitiveTypeName.INT32
                        ? new IntColumn(desc, BinaryRowBuilder::setLong, AsBatch.LONG)
                        : null;
            case FLOAT:
                return physical == PrimitiveTypeName.FLOAT ? new FloatColumn(desc, false) : null;
            case DOUBLE:
                if (physical == PrimitiveTypeName.DOUBLE) {
                    return new DoubleColumn(desc);
                }
                return physical == PrimitiveTypeName.FLOAT ? new FloatColumn(desc, true) : null;
            case TIME:
                return timeColumn(desc, prim);
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return timestampColumn(desc, prim);
            case STRING:
            case BINARY:
                return physical == PrimitiveTypeName.BINARY ? new BytesColumn(desc) : null;
            case DECIMAL:
                return decimalColumn(desc, (Types.DecimalType) expected, physical);
            default:
                return null;
        }
    }

    private static ParquetBatchedColumn<?> timeColumn(ColumnDescriptor desc, PrimitiveType prim) {
        if (!(prim.getLogicalTypeAnnotation()
                instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time)) {
            return null;
        }
        TimeUnit unit = time.getUnit();
        if (unit == TimeUnit.MILLIS) {
            return prim.getPrimitiveTypeName() == PrimitiveTypeName.INT32
                    ? new IntColumn(desc, BinaryRowBuilder::setInt, AsBatch.INT)
                    : null;
        }
        return longs(
                prim,
                desc,
                (row, pos, value) -> row.setInt(pos, ParquetLeafReaders.millisOfDay(value, unit)),
                AsBatch.TIME,
                unit);
    }

    private static ParquetBatchedColumn<?> timestampColumn(
            ColumnDescriptor desc, PrimitiveType prim) {
        if (!(prim.getLogicalTypeAnnotation()
                instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp)) {
            return null; // INT96
        }
        TimeUnit unit = timestamp.getUnit();
        return longs(
                prim,
                desc,
                (row, pos, value) ->
                        row.setTimestamp(pos, ParquetLeafReaders.timestamp(value, unit)),
                AsBatch.TIMESTAMP,
                unit);
    }

    private static ParquetBatchedColumn<?> decimalColumn(
            ColumnDescriptor desc, Types.DecimalType decimal, PrimitiveTypeName physical) {
        int precision = decimal.precision();
        int scale = decimal.scale();
        LongWriter writer;
        // a compact decimal is its unscaled long
        AsBatch batch = DecimalData.isCompact(precision) ? AsBatch.LONG : AsBatch.NONE;
        if (DecimalData.isCompact(precision)) {
            writer = BinaryRowBuilder::setCompactDecimal;
        } else {
            // a promoted precision: the file's unscaled int or long no longer fits a compact one
            writer =
                    (row, pos, unscaled) ->
                            row.setDecimal(
                                    pos,
                                    DecimalData.fromBigDecimal(
                                            BigDecimal.valueOf(unscaled, scale), precision, scale));
        }
        switch (physical) {
            case INT32:
                return new IntColumn(desc, writer::write, batch);
            case INT64:
                return new LongColumn(desc, writer, batch, null);
            default:
                return null;
        }
    }

    private static ParquetBatchedColumn<?> longs(
            PrimitiveType prim,
            ColumnDescriptor desc,
            LongWriter writer,
            AsBatch batch,
            TimeUnit unit) {
        return prim.getPrimitiveTypeName() == PrimitiveTypeName.INT64
                ? new LongColumn(desc, writer, batch, unit)
                : null;
    }

    /**
     * What the field of an INT32 or INT64 column holds in a row built column by column: the value
     * as an int or a long (a compact decimal's unscaled value too), a timestamp or a time of day of
     * the column's unit, or nothing the batch builder takes (a decimal too wide to be compact).
     */
    private enum AsBatch {
        INT,
        LONG,
        TIMESTAMP,
        TIME,
        NONE
    }

    /** A column whose values read as longs: its ints widened, or its longs. */
    interface LongValues {
        /** Value {@code index} of the column's vector, known not to be null. */
        long longAt(int index);
    }

    /** A column of byte strings, compared without copying them out. */
    interface ByteValues {
        /**
         * Compares value {@code index} of the column's vector, known not to be null, with {@code
         * other}, byte by byte as unsigned bytes (the order of UTF-8 strings by code point).
         */
        int compareAt(int index, byte[] other);
    }

    /** Writes an int value of a column into a row field, converting it to the field's type. */
    @FunctionalInterface
    interface IntWriter {
        void write(BinaryRowBuilder row, int pos, int value);
    }

    /** Writes a long value of a column into a row field, converting it to the field's type. */
    @FunctionalInterface
    interface LongWriter {
        void write(BinaryRowBuilder row, int pos, long value);
    }

    /**
     * BOOLEAN columns, in plain (bit-packed) pages only. Pages of version 2 run-length encode
     * booleans, which Flink's decoder does not read and which a chunk's encoding list cannot tell
     * from its run-length encoded definition levels: only the encoding statistics can.
     */
    private static final class BooleanColumn extends ParquetBatchedColumn<HeapBooleanVector> {
        private static final Set<Encoding> PLAIN = Set.of(Encoding.PLAIN);

        private BooleanColumn(ColumnDescriptor desc) {
            super(desc, new HeapBooleanVector(BATCH_SIZE), BooleanColumnReader::new);
        }

        @Override
        boolean decodes(ColumnChunkMetaData chunk) {
            EncodingStats stats = chunk == null ? null : chunk.getEncodingStats();
            return stats != null && PLAIN.containsAll(stats.getDataEncodings());
        }

        @Override
        void write(BinaryRowBuilder row, int pos, int index) {
            row.setBoolean(pos, vector.getBoolean(index));
        }

        @Override
        boolean writesBatches() {
            return true;
        }

        @Override
        void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    rows.setNull(r, pos);
                } else {
                    rows.setBoolean(r, pos, vector.getBoolean(index));
                }
            }
        }
    }

    /** INT32 columns: ints, dates, millisecond times, widened longs and int decimals. */
    private static final class IntColumn extends ParquetBatchedColumn<HeapIntVector>
            implements LongValues {
        private final IntWriter writer;
        private final AsBatch batch;

        private IntColumn(ColumnDescriptor desc, IntWriter writer, AsBatch batch) {
            super(desc, new HeapIntVector(BATCH_SIZE), IntColumnReader::new);
            this.writer = writer;
            this.batch = batch;
        }

        @Override
        void write(BinaryRowBuilder row, int pos, int index) {
            writer.write(row, pos, vector.getInt(index));
        }

        @Override
        boolean writesBatches() {
            return batch != AsBatch.NONE;
        }

        @Override
        void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            boolean widen = batch == AsBatch.LONG;
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    rows.setNull(r, pos);
                } else if (widen) {
                    rows.setLong(r, pos, vector.getInt(index));
                } else {
                    rows.setInt(r, pos, vector.getInt(index));
                }
            }
        }

        @Override
        public long longAt(int index) {
            return vector.getInt(index);
        }
    }

    /** INT64 columns: longs, timestamps, micro- and nanosecond times and long decimals. */
    private static final class LongColumn extends ParquetBatchedColumn<HeapLongVector>
            implements LongValues {
        private final LongWriter writer;
        private final AsBatch batch;

        /** The unit of a timestamp or time column's values, else null. */
        private final TimeUnit unit;

        private LongColumn(ColumnDescriptor desc, LongWriter writer, AsBatch batch, TimeUnit unit) {
            super(desc, new HeapLongVector(BATCH_SIZE), LongColumnReader::new);
            this.writer = writer;
            this.batch = batch;
            this.unit = unit;
        }

        @Override
        void write(BinaryRowBuilder row, int pos, int index) {
            writer.write(row, pos, vector.getLong(index));
        }

        @Override
        boolean writesBatches() {
            return batch != AsBatch.NONE;
        }

        @Override
        void measureBatch(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            if (batch == AsBatch.TIMESTAMP) {
                for (int r = 0; r < count; r++) {
                    if (!vector.isNullAt(first + r)) {
                        rows.addTimestamp(r, pos);
                    }
                }
            }
        }

        @Override
        void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            long unitsPerMilli =
                    unit == TimeUnit.MICROS ? 1_000L : unit == TimeUnit.NANOS ? 1_000_000L : 1L;
            int nanosPerUnit = (int) (1_000_000L / unitsPerMilli);
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    rows.setNull(r, pos);
                    continue;
                }
                long value = vector.getLong(index);
                switch (batch) {
                    case TIMESTAMP:
                        rows.setTimestamp(
                                r,
                                pos,
                                Math.floorDiv(value, unitsPerMilli),
                                (int) Math.floorMod(value, unitsPerMilli) * nanosPerUnit);
                        break;
                    case TIME:
                        rows.setInt(r, pos, ParquetLeafReaders.millisOfDay(value, unit));
                        break;
                    default:
                        rows.setLong(r, pos, value);
                }
            }
        }

        @Override
        public long longAt(int index) {
            return vector.getLong(index);
        }
    }

    /** FLOAT columns, read as floats or widened to doubles. */
    private static final class FloatColumn extends ParquetBatchedColumn<HeapFloatVector> {
        private final boolean widen;

        private FloatColumn(ColumnDescriptor desc, boolean widen) {
            super(desc, new HeapFloatVector(BATCH_SIZE), FloatColumnReader::new);
            this.widen = widen;
        }

        @Override
        void write(BinaryRowBuilder row, int pos, int index) {
            float value = vector.getFloat(index);
            if (widen) {
                row.setDouble(pos, value);
            } else {
                row.setFloat(pos, value);
            }
        }

        @Override
        boolean writesBatches() {
            return true;
        }

        @Override
        void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    rows.setNull(r, pos);
                } else if (widen) {
                    rows.setDouble(r, pos, vector.getFloat(index));
                } else {
                    rows.setFloat(r, pos, vector.getFloat(index));
                }
            }
        }
    }

    private static final class DoubleColumn extends ParquetBatchedColumn<HeapDoubleVector> {
        private DoubleColumn(ColumnDescriptor desc) {
            super(desc, new HeapDoubleVector(BATCH_SIZE), DoubleColumnReader::new);
        }

        @Override
        void write(BinaryRowBuilder row, int pos, int index) {
            row.setDouble(pos, vector.getDouble(index));
        }

        @Override
        boolean writesBatches() {
            return true;
        }

        @Override
        void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    rows.setNull(r, pos);
                } else {
                    rows.setDouble(r, pos, vector.getDouble(index));
                }
            }
        }
    }

    /**
     * BINARY columns: strings and binaries. Plain values are copied from the vector's buffer. A
     * dictionary-encoded batch keeps dictionary ids; each dictionary entry is decoded once per row
     * group into one shared array (Flink's vector would decode, and copy, the entry again for every
     * row that uses it).
     */
    private static final class BytesColumn extends ParquetBatchedColumn<HeapBytesVector>
            implements ByteValues {
        private byte[] entries = new byte[256];
        private int entriesUsed;
        private int[] entryStart = new int[16];
        private int[] entryLength = new int[16];

        private BytesColumn(ColumnDescriptor desc) {
            super(desc, new HeapBytesVector(BATCH_SIZE), BytesColumnReader::new);
        }

        @Override
        void rowGroupStarted() {
            entriesUsed = 0;
            Arrays.fill(entryStart, -1);
        }

        @Override
        void write(BinaryRowBuilder row, int pos, int index) {
            if (!vector.hasDictionary()) {
                row.setBytes(pos, vector.buffer, vector.start[index], vector.length[index]);
                return;
            }
            int id = entry(index);
            row.setBytes(pos, entries, entryStart[id], entryLength[id]);
        }

        @Override
        boolean writesBatches() {
            return true;
        }

        @Override
        void measureBatch(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            boolean dictionary = vector.hasDictionary();
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    continue;
                }
                if (dictionary) {
                    int id = entry(index); // may grow the entry arrays: read them after it
                    rows.addBytesLength(r, entryLength[id]);
                } else {
                    rows.addBytesLength(r, vector.length[index]);
                }
            }
        }

        @Override
        void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
            boolean dictionary = vector.hasDictionary();
            for (int r = 0; r < count; r++) {
                int index = first + r;
                if (vector.isNullAt(index)) {
                    rows.setNull(r, pos);
                } else if (dictionary) {
                    int id = entry(index);
                    rows.setBytes(r, pos, entries, entryStart[id], entryLength[id]);
                } else {
                    rows.setBytes(r, pos, vector.buffer, vector.start[index], vector.length[index]);
                }
            }
        }

        /** The dictionary id of value {@code index}, its entry decoded. */
        private int entry(int index) {
            int id = vector.getDictionaryIds().vector[index];
            if (id >= entryStart.length || entryStart[id] < 0) {
                decodeEntry(id, index);
            }
            return id;
        }

        @Override
        public int compareAt(int index, byte[] other) {
            if (!vector.hasDictionary()) {
                int start = vector.start[index];
                return Arrays.compareUnsigned(
                        vector.buffer, start, start + vector.length[index], other, 0, other.length);
            }
            int id = entry(index);
            int start = entryStart[id];
            return Arrays.compareUnsigned(
                    entries, start, start + entryLength[id], other, 0, other.length);
        }

        private void decodeEntry(int id, int index) {
            if (id >= entryStart.length) {
                int size = Math.max(id + 1, entryStart.length * 2);
                int old = entryStart.length;
                entryStart = Arrays.copyOf(entryStart, size);
                entryLength = Arrays.copyOf(entryLength, size);
                Arrays.fill(entryStart, old, size, -1);
            }
            BytesColumnVector.Bytes value =
                    vector.getBytes(index); // decodes through the dictionary
            if (entriesUsed + value.len > entries.length) {
                entries =
                        Arrays.copyOf(
                                entries, Math.max(entries.length * 2, entriesUsed + value.len));
            }
            System.arraycopy(value.data, value.offset, entries, entriesUsed, value.len);
            entryStart[id] = entriesUsed;
            entryLength[id] = value.len;
            entriesUsed += value.len;
        }
    }
}
