/**
 * One sink for many tables with evolving schemas ({@code DynamicIcebergSink}): the records that
 * carry their table, schema and partition spec ({@link
 * dev.icebergflink.sink.dynamic.DynamicRecord}, made by a {@link
 * dev.icebergflink.sink.dynamic.DynamicRecordGenerator}), the creation of missing tables ({@link
 * dev.icebergflink.sink.dynamic.TableCreator}) and the schema changes a table takes to follow its
 * records ({@link dev.icebergflink.sink.dynamic.SchemaEvolution}).
 */
package dev.icebergflink.sink.dynamic;
