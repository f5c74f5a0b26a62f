/**
 * Parquet files as Flink {@code RowData}: {@link
 * dev.icebergflink.data.parquet.ParquetRowDataReaders} and {@link
 * dev.icebergflink.data.parquet.ParquetRowDataWriters} build the value readers and writers, and
 * {@link dev.icebergflink.data.parquet.ParquetRowDataFormatModel} plugs them into Iceberg's File
 * Format API, row by row or in {@link dev.icebergflink.data.parquet.ParquetRowBatch}es.
 *
 * <p>Top-level rows are built by {@code ParquetBinaryRowReader} from {@code ParquetLeafReader}s
 * (one per Iceberg type and Parquet encoding, in {@code ParquetLeafReaders}) and, for plain and
 * dictionary-encoded chunks, {@code ParquetBatchedColumn}s; nested values by {@code
 * ParquetNestedReaders}. Writing uses {@code ParquetLeafWriters} and {@code ParquetNestedWriters}.
 * Everything else is package-private.
 */
package dev.icebergflink.data.parquet;
