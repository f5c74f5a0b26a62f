package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Builds the operators of one maintenance task from its steps. A single-stage task has a planner on
 * one subtask, workers spread over the task's parallelism, and a finisher on one subtask that
 * completes the run once every work item has a result:
 *
 * <pre>
 *   triggers --> plan (1) --items, rebalanced--> work (N) --results--+
 *                    \                                              +--> finish (1) --> results
 *                     +---------------------header------------------+
 * </pre>
 *
 * <p>A two-stage task replaces the workers by mappers, which turn each item into hashed records,
 * and reducers, keyed by bucket, which act on a bucket's records once all of the run's records are
 * in (see {@link TaskMapper} and {@link TaskReducer}):
 *
 * <pre>
 *   triggers --> plan (1) --items, rebalanced--> map (N) --records, by bucket--> reduce (N) --+
 *                    \                                                                       |
 *                     +--------------------------header----------------------> finish (1) <--+
 * </pre>
 *
 * <p>In both shapes the planner's watermark at the trigger's timestamp follows the run's items
 * through every stage: an operator that waits for the whole run sets an event-time timer at that
 * timestamp.
 */
@Internal
public final class TaskStages {

    /**
     * Buckets per reducing subtask of a two-stage task: many small buckets spread evenly over the
     * subtasks and keep each reduction small.
     */
    public static final int BUCKETS_PER_SUBTASK = 64;

    /**
     * Buckets when the parallelism is left to the cluster's default (not known while the job is
     * built): enough to spread over any parallelism up to Flink's default maximum of 128.
     */
    public static final int BUCKETS_FOR_DEFAULT_PARALLELISM = 128 * BUCKETS_PER_SUBTASK;

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
        SingleOutputStreamOperator<byte[]> items = plan(triggers, task, planner);
        DataStream<PlanHeader> headers = items.getSideOutput(PlanningOperator.HEADERS);

        SingleOutputStreamOperator<WorkResult> results =
                items.rebalance()
                        .process(new WorkingFunction(worker), TaskTypes.WORK_RESULT)
                        .name(task.operatorName("work"))
                        .setParallelism(task.parallelism());
        task.place(results, "work");

        return finish(headers, results, task, finisher);
    }

    /**
     * Appends the operators of a two-stage task to the triggers meant for it.
     *
     * @param triggers the triggers of this task only
     * @param task where the task sits in the topology and how it runs; its parallelism is the
     *     mappers' and the reducers'
     * @return one result per trigger
     */
    public static DataStream<TaskResult> append(
            DataStream<Trigger> triggers,
            TaskPlacement task,
            TaskPlanner planner,
            TaskMapper mapper,
            TaskReducer reducer,
            TaskFinisher finisher) {
        SingleOutputStreamOperator<byte[]> items = plan(triggers, task, planner);
        DataStream<PlanHeader> headers = items.getSideOutput(PlanningOperator.HEADERS);

        SingleOutputStreamOperator<KeyedRecord> records =
                items.rebalance()
                        .process(
                                new MappingFunction(
                                        mapper,
                                        task.parallelism() > 0
                                                ? task.parallelism() * BUCKETS_PER_SUBTASK
                                                : BUCKETS_FOR_DEFAULT_PARALLELISM),
                                TaskTypes.KEYED_RECORD)
                        .name(task.operatorName("map"))
                        .setParallelism(task.parallelism());
        task.place(records, "map");

        SingleOutputStreamOperator<WorkResult> results =
                records.keyBy(KeyedRecord::bucket, Types.INT)
                        .process(new ReducingFunction(reducer), TaskTypes.WORK_RESULT)
                        .name(task.operatorName("reduce"))
                        .setParallelism(task.parallelism());
        task.place(results, "reduce");

        return finish(headers, results, task, finisher);
    }

    private static SingleOutputStreamOperator<byte[]> plan(
            DataStream<Trigger> triggers, TaskPlacement task, TaskPlanner planner) {
        SingleOutputStreamOperator<byte[]> items =
                triggers.transform(
                                task.operatorName("plan"),
                                TaskTypes.BYTES,
                                new PlanningOperator(planner))
                        .setParallelism(1);
        task.place(items, "plan");
        return items;
    }

    private static DataStream<TaskResult> finish(
            DataStream<PlanHeader> headers,
            DataStream<WorkResult> results,
            TaskPlacement task,
            TaskFinisher finisher) {
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
