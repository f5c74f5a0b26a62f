package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.BinaryRowBatchBuilder;
import dev.icebergflink.data.row.BinaryRowBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import org.apache.flink.formats.parquet.vector.reader.ColumnReader;
import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * One top-level primitive column of a Parquet file, read through one of Flink's columnar decoders
 * into a vector of up to {@link #BATCH_SIZE} values that {@link #readInto} then hands out by row
 * number, in increasing order. {@link ParquetBatchedColumns} picks the subclass for each Iceberg
 * type and Parquet type, and {@link ParquetBinaryRowReader} reads through it the row groups whose
 * column chunk it {@link #decodes}.
 *
 * <p>It is apart from the per-type columns because its job is the same for all of them: opening the
 * decoder of each row group's chunk, refilling the vector a batch at a time, mapping row numbers to
 * values and telling which chunks the decoders can read. Rows are asked for by number so that a
 * reader may skip rows: a skipped row costs nothing unless the vector must move past it, and when a
 * {@link ParquetPageSelection} dropped pages of the chunk, the rows of those pages are never
 * decoded (a vector never spans two kept pages that are apart, so its values are consecutive rows).
 *
 * @param <V> the vector type Flink's decoder fills
 */
abstract class ParquetBatchedColumn<V extends WritableColumnVector> {

    /** Values decoded per call into Flink's decoders; small enough to stay in the CPU caches. */
    static final int BATCH_SIZE = 1024;

    /** The value encodings Flink's decoders read. */
    private static final Set<Encoding> DECODABLE_VALUES =
            Set.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);

    /**
     * What a chunk without encoding statistics may list: the value encodings above and the
     * encodings of definition levels (run-length or bit-packed).
     */
    private static final Set<Encoding> DECODABLE_VALUES_AND_LEVELS =
            Set.of(
                    Encoding.PLAIN,
                    Encoding.PLAIN_DICTIONARY,
                    Encoding.RLE_DICTIONARY,
                    Encoding.RLE,
                    Encoding.BIT_PACKED);

    /** Opens Flink's decoder of a column chunk's pages, filling vectors of type {@code V}. */
    @FunctionalInterface
    interface DecoderFactory<V extends WritableColumnVector> {
        ColumnReader<? super V> open(ColumnDescriptor column, PageReader pages) throws IOException;
    }

    private final ColumnDescriptor desc;
    final V vector;
    private final DecoderFactory<V> decoders;
    private ColumnReader<? super V> decoder;

    /** The rows of the chunk its (kept) pages hold: spans {@code [spanFrom[i], spanTo[i])}. */
    private long[] spanFrom = new long[1];

    private long[] spanTo = new long[1];
    private int spanCount;
    private int span;

    /** The row of the row group the decoder's next value belongs to. */
    private long decoded;

    /** The row of the row group of value 0 of the vector, and how many values it holds. */
    private long vectorStart;

    private int filled;

    /** The row the next {@link #readInto} reads, when the caller reads row after row. */
    private long next;

    ParquetBatchedColumn(ColumnDescriptor desc, V vector, DecoderFactory<V> decoders) {
        this.desc = desc;
        this.vector = vector;
        this.decoders = decoders;
    }

    /** The column this reads. */
    final ColumnDescriptor descriptor() {
        return desc;
    }

    /**
     * Whether Flink's decoder can read every page of the column chunk: the value encodings of its
     * data pages from the chunk's encoding statistics, or else every encoding it lists.
     */
    boolean decodes(ColumnChunkMetaData chunk) {
        if (chunk == null) {
            return false;
        }
        EncodingStats stats = chunk.getEncodingStats();
        if (stats != null) {
            return DECODABLE_VALUES.containsAll(stats.getDataEncodings());
        }
        return DECODABLE_VALUES_AND_LEVELS.containsAll(chunk.getEncodings());
    }

    /** Starts the column's chunk in a new row group, reading every page. */
    final void setPageSource(PageReadStore pages) {
        setPageSource(pages, null);
    }

    /**
     * Starts the column's chunk in a new row group, reading only the pages {@code selection} keeps
     * (every page when it is null). Rows of dropped pages can then no longer be read.
     */
    final void setPageSource(PageReadStore pages, ParquetPageSelection selection) {
        PageReader reader = pages.getPageReader(desc);
        if (selection == null) {
            spanCount = 1;
            spanFrom[0] = 0;
            spanTo[0] = pages.getRowCount();
        } else {
            reader = selection.keptPages(reader);
            spanFrom = selection.spanFrom();
            spanTo = selection.spanTo();
            spanCount = spanFrom.length;
        }
        try {
            decoder = decoders.open(desc, reader);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot read the dictionary of Parquet column %s",
                            String.join(".", desc.getPath())),
                    e);
        }
        span = 0;
        decoded = spanCount > 0 ? spanFrom[0] : 0;
        vectorStart = 0;
        filled = 0;
        next = 0;
        rowGroupStarted();
    }

    /** Called when a row group starts, before its first value is read. */
    void rowGroupStarted() {}

    /**
     * Reads the column's next value into field {@code pos} of {@code row}, or null where the column
     * has none.
     */
    final void readInto(BinaryRowBuilder row, int pos) {
        readInto(row, pos, next);
    }

    /**
     * Reads the value of row {@code rowIndex} of the row group into field {@code pos} of {@code
     * row}; rows must be asked for in increasing order.
     */
    final void readInto(BinaryRowBuilder row, int pos, long rowIndex) {
        int index = indexOf(rowIndex);
        next = rowIndex + 1;
        if (vector.isNullAt(index)) {
            row.setNull(pos);
        } else {
            write(row, pos, index);
        }
    }

    /**
     * The index in {@link #vector} of the value of row {@code rowIndex} of the row group, decoding
     * up to it; rows must be asked for in increasing order, and only rows of kept pages.
     */
    final int indexOf(long rowIndex) {
        long offset = rowIndex - vectorStart;
        if (offset >= 0 && offset < filled) {
            return (int) offset;
        }
        seekDecoder(rowIndex);
        decode(rowIndex, (int) Math.min(BATCH_SIZE, spanTo[span] - rowIndex));
        return 0;
    }

    /** Moves the decoder to row {@code rowIndex}, decoding and dropping the values before it. */
    private void seekDecoder(long rowIndex) {
        while (span < spanCount) {
            long end = spanTo[span];
            if (decoded >= end) {
                if (span + 1 == spanCount) {
                    break;
                }
                span++;
                decoded = spanFrom[span]; // the pages in between were dropped
            } else if (decoded < rowIndex) {
                decode(decoded, (int) Math.min(BATCH_SIZE, Math.min(rowIndex, end) - decoded));
            } else {
                break;
            }
        }
        if (span >= spanCount || decoded != rowIndex || rowIndex >= spanTo[span]) {
            throw new IllegalStateException(
                    String.format(
                            "Parquet column %s has no value for row %d of this row group",
                            String.join(".", desc.getPath()), rowIndex));
        }
    }

    /**
     * Decodes the {@code count} values from row {@code from} (the decoder's next) into the vector.
     */
    private void decode(long from, int count) {
        vector.reset();
        try {
            decoder.readToVector(count, vector);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot decode Parquet column %s", String.join(".", desc.getPath())),
                    e);
        }
        vectorStart = from;
        filled = count;
        decoded = from + count;
    }

    /** Writes value {@code index} of the vector, known not to be null, into field {@code pos}. */
    abstract void write(BinaryRowBuilder row, int pos, int index);

    /**
     * How many decoded values the vector holds from {@code index} on (an index {@link #indexOf}
     * returned): the rows a batch may take from it without decoding again.
     */
    final int valuesFrom(int index) {
        return filled - index;
    }

    /**
     * Whether {@link #writeBatch} can write this column's values into the field of a batch of rows:
     * true for every column whose values the field holds without conversion to an object.
     */
    boolean writesBatches() {
        return false;
    }

    /**
     * Counts the variable-length values of rows {@code 0 <= r < count} of {@code rows}, values
     * {@code first + r} of the vector, in field {@code pos}; columns of fixed-width values count
     * nothing.
     */
    void measureBatch(BinaryRowBatchBuilder rows, int pos, int first, int count) {}

    /**
     * Writes values {@code first .. first + count - 1} of the vector (an index {@link #indexOf}
     * returned, and at most {@link #valuesFrom} values) into field {@code pos} of rows {@code 0 ..
     * count - 1} of {@code rows}; the next row read row after row is the one after them. Only
     * called when {@link #writesBatches}.
     */
    final void writeBatch(BinaryRowBatchBuilder rows, int pos, int first, int count) {
        writeValues(rows, pos, first, count);
        next = vectorStart + first + count;
    }

    /**
     * Writes values {@code first + r} of the vector, or null, into field {@code pos} of rows {@code
     * 0 <= r < count}: one loop per column type, so that the call per value is direct.
     */
    void writeValues(BinaryRowBatchBuilder rows, int pos, int first, int count) {
        throw new UnsupportedOperationException(
                "Parquet column "
                        + String.join(".", desc.getPath())
                        + " is not written column by column");
    }
}
