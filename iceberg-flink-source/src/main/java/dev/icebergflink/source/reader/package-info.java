/**
 * The reader side of the Iceberg source: turning a split into batches of records with positions.
 *
 * <p>Core's {@link dev.icebergflink.tasks.reader.RowDataFileTaskReader} reads one Iceberg file task
 * as {@code RowData} (projection, partition and metadata constants, deletes, residual filter);
 * {@link dev.icebergflink.source.reader.IcebergReaderFunction} turns a split into batches; {@link
 * dev.icebergflink.source.reader.IcebergSourceSplitReader} and {@link
 * dev.icebergflink.source.reader.IcebergSourceReader} plug this into Flink's connector base; {@link
 * dev.icebergflink.source.reader.RowDataConverter} implementations give output types other than
 * {@code RowData}.
 */
package dev.icebergflink.source.reader;
