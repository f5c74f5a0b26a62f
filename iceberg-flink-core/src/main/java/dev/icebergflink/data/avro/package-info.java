/**
 * Avro files as Flink {@code RowData}: {@link dev.icebergflink.data.avro.AvroRowDataReader} and
 * {@link dev.icebergflink.data.avro.AvroRowDataWriter}, plugged into Iceberg's File Format API by
 * {@link dev.icebergflink.data.avro.AvroRowDataFormatModel}.
 *
 * <p>The reader's value tree is built by {@code AvroReaderTreeBuilder} from {@code
 * AvroFieldReaders}, and its top-level rows by {@code AvroBinaryRowReader}; the writer's by {@code
 * AvroWriterTreeBuilder} from {@code AvroFieldWriters}. Everything else is package-private.
 */
package dev.icebergflink.data.avro;
