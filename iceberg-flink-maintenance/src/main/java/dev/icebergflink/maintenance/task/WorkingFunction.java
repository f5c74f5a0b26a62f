package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Runs a task's {@link TaskWorker} on each work item; a failing item becomes a {@link WorkResult}
 * with the error instead of failing the job. Results keep the item's timestamp (the run's trigger)
 * and the planner's watermarks pass through.
 */
@Internal
public final class WorkingFunction extends ProcessFunction<byte[], WorkResult> {

    private static final long serialVersionUID = 1L;

    private final TaskWorker worker;

    public WorkingFunction(TaskWorker worker) {
        this.worker = worker;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        TaskInfo task = getRuntimeContext().getTaskInfo();
        worker.open(task.getIndexOfThisSubtask(), task.getAttemptNumber());
    }

    @Override
    public void processElement(byte[] item, Context context, Collector<WorkResult> out) {
        WorkResult result;
        try {
            result = new WorkResult(worker.process(item), null);
        } catch (Exception e) {
            result = new WorkResult(new byte[0], TaskErrors.describe(e));
        }
        out.collect(result);
    }

    @Override
    public void close() throws Exception {
        worker.close();
    }
}
