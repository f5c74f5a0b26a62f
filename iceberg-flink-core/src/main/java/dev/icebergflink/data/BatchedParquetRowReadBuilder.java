package dev.icebergflink.data;

import dev.icebergflink.data.parquet.ParquetRowBatch;
import dev.icebergflink.data.parquet.ParquetScanPushdown;
import java.io.IOException;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.mapping.NameMapping;

/**
 * A row read builder for Parquet files that reads through Iceberg's batched Parquet path and
 * returns the rows of the batches one by one.
 *
 * <p>The filter also reaches the batch reader (through a {@link ParquetScanPushdown} scope around
 * the creation of each iterator), which skips pages and rows the filter rules out; the rows
 * returned may therefore be fewer than the file's, and every row the filter keeps is among them.
 *
 * <p>It exists so that every caller of {@link RowDataFileReaders} keeps reading rows while Parquet
 * files are decoded in batches (see {@code ParquetBatchedColumns}); all settings pass through to
 * the batched builder unchanged.
 */
final class BatchedParquetRowReadBuilder implements ReadBuilder<RowData, RowType> {

    /** Rows per batch unless the caller sets another size. */
    static final int ROWS_PER_BATCH = 4096;

    private final ReadBuilder<ParquetRowBatch, RowType> batches;
    private final InputFile file;
    private Expression filter;
    private boolean caseSensitive = true;
    private Schema projected;

    BatchedParquetRowReadBuilder(ReadBuilder<ParquetRowBatch, RowType> batches, InputFile file) {
        this.batches = batches.recordsPerBatch(ROWS_PER_BATCH);
        this.file = file;
    }

    @Override
    public ReadBuilder<RowData, RowType> split(long start, long length) {
        batches.split(start, length);
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> project(Schema schema) {
        batches.project(schema);
        this.projected = schema;
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> engineProjection(RowType rowType) {
        batches.engineProjection(rowType);
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> caseSensitive(boolean caseSensitive) {
        batches.caseSensitive(caseSensitive);
        this.caseSensitive = caseSensitive;
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> filter(Expression filter) {
        batches.filter(filter);
        this.filter = filter;
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> set(String key, String value) {
        batches.set(key, value);
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> reuseContainers() {
        batches.reuseContainers(); // reuses the batch; its rows are independent either way
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> recordsPerBatch(int rows) {
        batches.recordsPerBatch(rows);
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> idToConstant(Map<Integer, ?> constants) {
        batches.idToConstant(constants);
        return this;
    }

    @Override
    public ReadBuilder<RowData, RowType> withNameMapping(NameMapping mapping) {
        batches.withNameMapping(mapping);
        return this;
    }

    @Override
    public CloseableIterable<RowData> build() {
        CloseableIterable<ParquetRowBatch> built = batches.build();
        ParquetScanPushdown pushdown =
                filter == null ? null : new ParquetScanPushdown(filter, caseSensitive, file);
        return new CloseableIterable<>() {
            @Override
            public CloseableIterator<RowData> iterator() {
                if (pushdown == null) {
                    return new RowsOfBatches(built.iterator());
                }
                // Iceberg builds the batch reader here, on this thread: it picks the filter up
                CloseableIterator<ParquetRowBatch> batchIterator;
                try (ParquetScanPushdown.Scope ignored = pushdown.open()) {
                    batchIterator = built.iterator();
                }
                if (projected != null
                        && RowDataFileReaders.filtersExactly(
                                FileFormat.PARQUET, projected, filter, caseSensitive)
                        && !pushdown.applied()) {
                    // callers skip their own evaluation of the filter on the strength of it
                    IllegalStateException notApplied =
                            new IllegalStateException(
                                    "The filter "
                                            + filter
                                            + " did not reach the Parquet batch reader of "
                                            + file.location()
                                            + "; refusing to return unfiltered rows");
                    try {
                        batchIterator.close();
                    } catch (IOException e) {
                        notApplied.addSuppressed(e);
                    }
                    throw notApplied;
                }
                return new RowsOfBatches(batchIterator);
            }

            @Override
            public void close() throws IOException {
                built.close();
            }
        };
    }

    /** The rows of a sequence of batches, in order. */
    private static final class RowsOfBatches implements CloseableIterator<RowData> {
        private final CloseableIterator<ParquetRowBatch> batches;
        private ParquetRowBatch batch;
        private int next;

        private RowsOfBatches(CloseableIterator<ParquetRowBatch> batches) {
            this.batches = batches;
        }

        @Override
        public boolean hasNext() {
            while (batch == null || next == batch.size()) {
                if (!batches.hasNext()) {
                    return false;
                }
                batch = batches.next();
                next = 0;
            }
            return true;
        }

        @Override
        public RowData next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return batch.row(next++);
        }

        @Override
        public void close() throws IOException {
            batches.close();
        }
    }
}
