/**
 * The Flink row primitives that every file format and every module shares: building, viewing,
 * checking and partitioning {@code RowData} without knowing how a file stores it.
 *
 * <p>{@link dev.icebergflink.data.row.BinaryRowBuilder} and {@link
 * dev.icebergflink.data.row.StringDataArena} make the rows and strings the format readers hand out;
 * {@link dev.icebergflink.data.row.RowDataConstants} turns constant columns (partition values,
 * metadata columns, defaults) into Flink's internal values; {@link
 * dev.icebergflink.data.row.EngineProjections} checks a requested Flink projection against the
 * Iceberg one; {@link dev.icebergflink.data.row.FlinkTypeRoots} and {@link
 * dev.icebergflink.data.row.RequiredFieldCheck} check a Flink row type and rows against the Iceberg
 * schema before they are written; {@link dev.icebergflink.data.row.RowDataStructLike} shows a Flink
 * row to Iceberg as a {@code StructLike}, and {@link dev.icebergflink.data.row.RowDataPartitioner}
 * finds the partition of a row on the write path.
 *
 * <p>The package exists so that the layers stay one-way: the Parquet, ORC and Avro packages use it
 * and never each other, {@code dev.icebergflink.data} assembles those formats into file readers and
 * writers, and the source and the sink use the primitives directly (for example to key deletes and
 * to route rows to writers). Nothing here imports {@code dev.icebergflink.data} or a format
 * package.
 */
package dev.icebergflink.data.row;
