/**
 * ORC files as Flink {@code RowData}: {@link dev.icebergflink.data.orc.OrcRowDataReader} and {@link
 * dev.icebergflink.data.orc.OrcRowDataWriter}, plugged into Iceberg's File Format API by {@link
 * dev.icebergflink.data.orc.OrcRowDataFormatModel}.
 *
 * <p>The reader builds its top-level rows with {@code OrcBinaryRowReader} and {@code
 * BinaryColumnReaders}, and nested values with {@code OrcFieldReaders}; the writer uses {@code
 * OrcLeafWriters} for primitive values and {@code OrcNestedWriters} for rows, lists and maps, all
 * of them {@code OrcFieldWriter}s. Everything else is package-private.
 */
package dev.icebergflink.data.orc;
