package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;

/**
 * What a task's planner decided for one run, sent straight to the task's finisher: the plan in the
 * task's own serialized form, or why planning failed.
 *
 * @param payload the plan, serialized by the task (empty when planning failed)
 * @param itemCount how many work items the planner sent to the workers
 * @param error why planning failed; null when it succeeded
 */
@Internal
public record PlanHeader(byte[] payload, int itemCount, String error) {}
