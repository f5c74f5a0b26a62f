/**
 * The Sink V2 Iceberg sink: input distribution, writers that roll data and delete files, the
 * per-checkpoint aggregation and the committer that makes one Iceberg snapshot per checkpoint.
 * Users start from {@code IcebergSink.forRowData()}.
 */
package dev.icebergflink.sink;
