package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;

/**
 * The order to run one maintenance task once, sent by the trigger manager while it holds the
 * table's maintenance lock.
 *
 * <p>The timestamp identifies the run: every element a task emits for the run carries it as its
 * record timestamp, and the task's planner emits it as a watermark after the run's work items, so
 * that the task's last operator knows when all parallel work of the run has arrived.
 *
 * @param taskIndex the task's position in the topology
 * @param timestamp when the run was triggered (epoch milliseconds, increasing within a topology)
 * @param recovery whether the run repeats one that was in flight when the job failed
 */
@Internal
public record Trigger(int taskIndex, long timestamp, boolean recovery) {}
