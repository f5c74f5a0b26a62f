/**
 * One sink for many tables with evolving schemas ({@code DynamicIcebergSink}): the records that
 * carry their table, schema and partition spec ({@link
 * dev.icebergflink.sink.dynamic.DynamicRecord}, made by a {@link
 * dev.icebergflink.sink.dynamic.DynamicRecordGenerator}), the creation of missing tables ({@link
 * dev.icebergflink.sink.dynamic.TableCreator}), the cached table metadata ({@link
 * dev.icebergflink.sink.dynamic.TableMetadataCache}), the schema, spec and branch changes a table
 * takes to follow its records ({@link dev.icebergflink.sink.dynamic.SchemaEvolution}, {@link
 * dev.icebergflink.sink.dynamic.TableUpdater}) and the rows turned into the table's schema ({@link
 * dev.icebergflink.sink.dynamic.RecordResolver}, {@link
 * dev.icebergflink.sink.dynamic.RowDataToTableSchema}), and what is committed per table and branch
 * ({@link dev.icebergflink.sink.dynamic.DynamicCommittable}).
 */
package dev.icebergflink.sink.dynamic;
