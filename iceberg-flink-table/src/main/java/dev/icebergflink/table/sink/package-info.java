/**
 * The write path of SQL: what the dynamic table sink of an Iceberg table needs beyond the {@code
 * IcebergSink} itself, such as the write settings of one {@code INSERT}, resolved and checked while
 * the statement is planned ({@link dev.icebergflink.table.sink.SqlWriteSettings}).
 */
package dev.icebergflink.table.sink;
