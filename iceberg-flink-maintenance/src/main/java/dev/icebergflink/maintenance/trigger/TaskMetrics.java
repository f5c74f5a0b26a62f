package dev.icebergflink.maintenance.trigger;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.MetricGroup;

/**
 * Where the metrics of one maintenance task live: the operator's group, then {@code
 * maintenance.task.<name>}. The trigger manager counts {@code triggered}; the lock remover counts
 * {@code succeeded}, {@code failed}, {@code filesAdded}, {@code filesRemoved} and reports {@code
 * lastRunDurationMs}.
 */
@Internal
final class TaskMetrics {

    private TaskMetrics() {}

    static MetricGroup group(MetricGroup operator, String taskName) {
        return operator.addGroup("maintenance").addGroup("task", taskName);
    }
}
