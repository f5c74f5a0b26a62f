package dev.icebergflink.data.parquet;

import java.util.Map;
import org.apache.iceberg.parquet.VectorizedReader;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * Reads a Parquet file in batches of rows through Iceberg's batched Parquet read path.
 *
 * <p>It exists for the one thing that path gives and the row path does not: each row group's column
 * chunk metadata, from which {@link ParquetBinaryRowReader#setRowGroup} picks the columns that
 * Flink's columnar decoders can read. Everything else (projection by field id, constants, metadata
 * columns, defaults, promotions, nested values) is the row reader's, so both paths return the same
 * rows.
 */
final class ParquetRowBatchReader implements VectorizedReader<ParquetRowBatch> {

    private final ParquetBinaryRowReader rows;

    ParquetRowBatchReader(ParquetBinaryRowReader rows) {
        this.rows = rows;
    }

    @Override
    public ParquetRowBatch read(ParquetRowBatch reuse, int numRows) {
        ParquetRowBatch batch = reuse != null ? reuse : new ParquetRowBatch(numRows);
        batch.clear(numRows);
        for (int i = 0; i < numRows; i++) {
            batch.add(rows.read(null));
        }
        return batch;
    }

    @Override
    public void setBatchSize(int batchSize) {
        // batches are sized by each read call; the columns decode in their own fixed batches
    }

    @Override
    public void setRowGroupInfo(
            PageReadStore pages, Map<ColumnPath, ColumnChunkMetaData> metadata) {
        rows.setRowGroup(pages, metadata);
    }

    /** How many fields the current row group decodes in batches. */
    int batchedFieldCount() {
        return rows.batchedFieldCount();
    }

    @Override
    public void close() {
        // holds no resources: the pages belong to Iceberg's file reader
    }
}
