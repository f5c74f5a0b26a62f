package dev.icebergflink.maintenance.task;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects a run's header and its items' results and, when the planner's watermark for the run has
 * passed every worker (an event-time timer at the trigger's timestamp), runs the task's {@link
 * TaskFinisher} and emits the run's {@link TaskResult}.
 *
 * <p>Both inputs are keyed by one constant key: runs of a task never overlap (the trigger manager
 * holds the lock until the result is in), so there is one run per task at a time and the state
 * holds only that run.
 */
@Internal
public final class FinishingFunction
        extends KeyedCoProcessFunction<Integer, PlanHeader, WorkResult, TaskResult> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FinishingFunction.class);

    private final int taskIndex;
    private final String taskName;
    private final TaskFinisher finisher;

    private transient ValueState<PlanHeader> header;
    private transient ListState<WorkResult> results;

    public FinishingFunction(int taskIndex, String taskName, TaskFinisher finisher) {
        this.taskIndex = taskIndex;
        this.taskName = taskName;
        this.finisher = finisher;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        header =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("header", TaskTypes.PLAN_HEADER));
        results =
                getRuntimeContext()
                        .getListState(new ListStateDescriptor<>("results", TaskTypes.WORK_RESULT));
        finisher.open();
    }

    @Override
    public void processElement1(PlanHeader value, Context context, Collector<TaskResult> out)
            throws Exception {
        header.update(value);
        context.timerService().registerEventTimeTimer(context.timestamp());
    }

    @Override
    public void processElement2(WorkResult value, Context context, Collector<TaskResult> out)
            throws Exception {
        results.add(value);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<TaskResult> out)
            throws Exception {
        PlanHeader plan = header.value();
        List<byte[]> succeeded = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        if (plan != null && plan.error() != null) {
            errors.add("planning failed: " + plan.error());
        }
        for (WorkResult result : results.get()) {
            if (result.error() == null) {
                succeeded.add(result.payload());
            } else {
                errors.add(result.error());
            }
        }
        header.clear();
        results.clear();
        long duration = Math.max(0L, System.currentTimeMillis() - timestamp);
        if (plan == null) {
            errors.add("the plan of the run never arrived");
        }
        TaskResult result;
        if (errors.isEmpty()) {
            TaskTestHooks.beforeFinishing(timestamp);
            try {
                TaskFinisher.Outcome outcome = finisher.finish(plan.payload(), succeeded);
                if (!outcome.complete()) {
                    LOG.warn(
                            "Maintenance task {} triggered at {} did part of its work: {}",
                            taskName,
                            timestamp,
                            outcome.error());
                }
                result =
                        new TaskResult(
                                taskIndex,
                                timestamp,
                                outcome.complete(),
                                duration,
                                outcome.filesAdded(),
                                outcome.filesRemoved(),
                                outcome.error());
            } catch (Exception e) {
                LOG.warn("Maintenance task {} triggered at {} failed", taskName, timestamp, e);
                result = failed(timestamp, duration, TaskErrors.describe(e));
            }
        } else {
            LOG.warn(
                    "Maintenance task {} triggered at {} is given up: {}",
                    taskName,
                    timestamp,
                    errors);
            try {
                finisher.abandon(
                        plan == null || plan.error() != null ? null : plan.payload(), succeeded);
            } catch (Exception e) {
                LOG.warn("Cleaning up after maintenance task {} failed", taskName, e);
            }
            result = failed(timestamp, duration, String.join("; ", errors));
        }
        out.collect(result);
    }

    private TaskResult failed(long timestamp, long duration, String error) {
        return new TaskResult(taskIndex, timestamp, false, duration, 0L, 0L, error);
    }

    @Override
    public void close() throws Exception {
        finisher.close();
    }
}
