package dev.icebergflink.data.parquet;

import java.util.Arrays;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

/**
 * A run of consecutive rows of one Parquet row group, as the batched Parquet reader returns them.
 *
 * <p>It exists because Iceberg's batched Parquet read path hands a reader each row group's column
 * chunk metadata (the encodings in particular), and the row-at-a-time path does not: the batched
 * reader needs it to decide which columns Flink's columnar decoders can take. The rows themselves
 * are independent {@code BinaryRowData}, so a caller may keep them after the batch is reused.
 */
@Internal
public final class ParquetRowBatch {

    private RowData[] rows;
    private int size;

    ParquetRowBatch(int capacity) {
        this.rows = new RowData[capacity];
    }

    /** The number of rows in the batch. */
    public int size() {
        return size;
    }

    /** Row {@code index} of the batch, {@code 0 <= index < size()}. */
    public RowData row(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(
                    String.format("Row %d of a batch of %d rows", index, size));
        }
        return rows[index];
    }

    /** Empties the batch and makes room for {@code capacity} rows. */
    void clear(int capacity) {
        if (rows.length < capacity) {
            rows = new RowData[capacity];
        } else {
            Arrays.fill(rows, 0, size, null);
        }
        size = 0;
    }

    void add(RowData row) {
        rows[size++] = row;
    }
}
