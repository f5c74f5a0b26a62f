package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.task.TaskResult;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of every maintenance run: reports the run's {@link TaskResult} in the task's metrics and
 * the log, and gives the topology's lock back through its {@link LockCoordinator}, which lets the
 * trigger manager start the next run. It runs on one subtask and emits nothing.
 */
@Internal
public final class LockRemover extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<TaskResult, Void>, LockedOperatorFactory.LockedOperator {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LockRemover.class);

    private final List<String> taskNames;

    private transient OperatorEventGateway gateway;
    private transient List<Counter> succeeded;
    private transient List<Counter> failed;
    private transient List<Counter> filesAdded;
    private transient List<Counter> filesRemoved;
    private transient long[] lastDurations;

    public LockRemover(List<String> taskNames) {
        this.taskNames = List.copyOf(taskNames);
    }

    @Override
    public void connect(OperatorEventGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void open() throws Exception {
        super.open();
        succeeded = new ArrayList<>();
        failed = new ArrayList<>();
        filesAdded = new ArrayList<>();
        filesRemoved = new ArrayList<>();
        lastDurations = new long[taskNames.size()];
        for (int i = 0; i < taskNames.size(); i++) {
            MetricGroup group = TaskMetrics.group(getMetricGroup(), taskNames.get(i));
            succeeded.add(group.counter("succeeded"));
            failed.add(group.counter("failed"));
            filesAdded.add(group.counter("filesAdded"));
            filesRemoved.add(group.counter("filesRemoved"));
            int task = i;
            group.gauge("lastRunDurationMs", () -> lastDurations[task]);
        }
    }

    @Override
    public void processElement(StreamRecord<TaskResult> element) {
        TaskResult result = element.getValue();
        int task = result.taskIndex();
        String name = taskNames.get(task);
        lastDurations[task] = result.durationMillis();
        // A failed run may still have changed the table (a rewrite with partial progress)
        filesAdded.get(task).inc(result.filesAdded());
        filesRemoved.get(task).inc(result.filesRemoved());
        if (result.success()) {
            succeeded.get(task).inc();
            LOG.info(
                    "Maintenance task {} (run {}) succeeded in {} ms: {} files added, {} removed",
                    name,
                    result.triggerTimestamp(),
                    result.durationMillis(),
                    result.filesAdded(),
                    result.filesRemoved());
        } else {
            failed.get(task).inc();
            LOG.warn(
                    "Maintenance task {} (run {}) failed after {} ms ({} files added, {} removed):"
                            + " {}",
                    name,
                    result.triggerTimestamp(),
                    result.durationMillis(),
                    result.filesAdded(),
                    result.filesRemoved(),
                    result.error());
        }
        gateway.sendEventToCoordinator(new LockEvent.Release(result.triggerTimestamp()));
    }

    @Override
    public void handleOperatorEvent(OperatorEvent event) {
        throw new IllegalArgumentException("The lock remover expects no events, got " + event);
    }
}
