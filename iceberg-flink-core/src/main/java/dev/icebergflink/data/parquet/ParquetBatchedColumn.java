package dev.icebergflink.data.parquet;

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
 * into a vector of {@link #BATCH_SIZE} values that {@link #readInto} then hands out, one per row,
 * in order. {@link ParquetBatchedColumns} picks the subclass for each Iceberg type and Parquet
 * type, and {@link ParquetBinaryRowReader} reads through it the row groups whose column chunk it
 * {@link #decodes}.
 *
 * <p>It is apart from the per-type columns because its job is the same for all of them: opening the
 * decoder of each row group's chunk, refilling the vector a batch at a time, counting the rows left
 * and telling which chunks the decoders can read.
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
    private long rowsLeft;
    private int filled;
    private int next;

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

    /** Starts the column's chunk in a new row group. */
    final void setPageSource(PageReadStore pages) {
        try {
            decoder = decoders.open(desc, pages.getPageReader(desc));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot read the dictionary of Parquet column %s",
                            String.join(".", desc.getPath())),
                    e);
        }
        rowsLeft = pages.getRowCount();
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
        if (next == filled) {
            decodeNextBatch();
        }
        int index = next++;
        if (vector.isNullAt(index)) {
            row.setNull(pos);
        } else {
            write(row, pos, index);
        }
    }

    /** Writes value {@code index} of the vector, known not to be null, into field {@code pos}. */
    abstract void write(BinaryRowBuilder row, int pos, int index);

    private void decodeNextBatch() {
        if (rowsLeft <= 0) {
            throw new IllegalStateException(
                    String.format(
                            "Parquet column %s has no more values in this row group",
                            String.join(".", desc.getPath())));
        }
        int count = (int) Math.min(BATCH_SIZE, rowsLeft);
        vector.reset();
        try {
            decoder.readToVector(count, vector);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot decode Parquet column %s", String.join(".", desc.getPath())),
                    e);
        }
        rowsLeft -= count;
        filled = count;
        next = 0;
    }
}
