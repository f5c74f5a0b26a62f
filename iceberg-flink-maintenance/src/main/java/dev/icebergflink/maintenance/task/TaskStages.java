package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Builds the operators of one maintenance task from its three steps: a planner on one subtask, the
 * workers spread over the task's parallelism, and a finisher on one subtask that completes the run
 * once every work item has a result.
 *
 * <pre>
 *   triggers --> plan (1) --items, rebalanced--> work (N) --results--+
 *                    \                                              +--> finish (1) --> results
 *                     +---------------------header------------------+
 * </pre>
 */
@Internal
public final class TaskStages {

    private TaskStages() {}

    /**
     * Appends the task's operators to the triggers meant for it.
     *
     * @param triggers the triggers of this task only
     * @param task where the task sits in the topology and how it runs
     * @return one result per trigger
     */
    public static DataStream<TaskResult> append(
            DataStream<Trigger> triggers,
            TaskPlacement task,
            TaskPlanner planner,
            TaskWorker worker,
            TaskFinisher finisher) {
        SingleOutputStreamOperator<byte[]> items =
                triggers.transform(
                                task.operatorName("plan"),
                                TaskTypes.BYTES,
                                new PlanningOperator(planner))
                        .setParallelism(1);
        task.place(items, "plan");
        DataStream<PlanHeader> headers = items.getSideOutput(PlanningOperator.HEADERS);

        SingleOutputStreamOperator<WorkResult> results =
                items.rebalance()
                        .process(new WorkingFunction(worker), TaskTypes.WORK_RESULT)
                        .name(task.operatorName("work"))
                        .setParallelism(task.parallelism());
        task.place(results, "work");

        SingleOutputStreamOperator<TaskResult> finished =
                headers.keyBy(new OneKey<>(), Types.INT)
                        .connect(results.keyBy(new OneKey<>(), Types.INT))
                        .process(
                                new FinishingFunction(task.index(), task.name(), finisher),
                                TaskTypes.TASK_RESULT)
                        .name(task.operatorName("finish"))
                        .setParallelism(1);
        task.place(finished, "finish");
        return finished;
    }

    /** Every element of a task's run goes to the one finisher subtask. */
    private static final class OneKey<T> implements KeySelector<T, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public Integer getKey(T value) {
            return 0;
        }
    }
}
