package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;

/**
 * A {@link TaskMapper} record on its way to its bucket, or the news that a mapper failed, sent to
 * every bucket so that none acts on an incomplete run.
 *
 * @param bucket the bucket the record belongs to
 * @param payload the record, serialized by the task (empty for a failure)
 * @param error why a mapper failed; null for a record
 */
@Internal
public record KeyedRecord(int bucket, byte[] payload, String error) {}
