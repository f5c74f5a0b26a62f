package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;

/**
 * How one run of a maintenance task ended, sent to the lock remover, which releases the lock and
 * reports the run in the task's metrics.
 *
 * @param taskIndex the task's position in the topology
 * @param triggerTimestamp the run's {@link Trigger#timestamp()}
 * @param success whether the run did all it planned (a run with nothing to do succeeds)
 * @param durationMillis from the trigger to the end of the run
 * @param filesAdded files the run added to the table (rewritten data files)
 * @param filesRemoved files the run removed from the table or deleted from storage
 * @param error why the run failed; null when it succeeded
 */
@Internal
public record TaskResult(
        int taskIndex,
        long triggerTimestamp,
        boolean success,
        long durationMillis,
        long filesAdded,
        long filesRemoved,
        String error) {}
