/**
 * Reading and writing Iceberg data files as Flink {@code RowData}, whatever their file format.
 *
 * <p>{@link dev.icebergflink.data.RowDataFileReaders} and {@link
 * dev.icebergflink.data.RowDataFileWriterFactory} are what the source, the sink and the other
 * modules use; {@link dev.icebergflink.data.RowDataFormatModels} registers the Parquet, ORC and
 * Avro models of the format packages with Iceberg's {@code FormatModelRegistry} before either is
 * used.
 *
 * <p>The layers go one way: this package uses the format packages ({@code data.parquet}, {@code
 * data.orc}, {@code data.avro}); they use the row primitives of {@code data.row} and {@code
 * FlinkSchemaUtil}, never each other and never this package.
 */
package dev.icebergflink.data;
