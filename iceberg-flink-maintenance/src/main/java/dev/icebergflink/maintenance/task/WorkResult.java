package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;

/**
 * What a worker did with one work item: the result in the task's own serialized form, or why the
 * item failed (the worker has already undone what it could, such as files it wrote).
 *
 * @param payload the result, serialized by the task (empty when the item failed)
 * @param error why the item failed; null when it succeeded
 */
@Internal
public record WorkResult(byte[] payload, String error) {}
