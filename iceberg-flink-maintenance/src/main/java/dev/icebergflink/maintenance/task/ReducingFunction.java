package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keeps the records of one bucket of a run, keyed by bucket, and runs the task's {@link
 * TaskReducer} on them when the planner's watermark for the run has passed every mapper (an
 * event-time timer at the trigger's timestamp), that is once every record of the run is in.
 *
 * <p>A bucket that heard of a failed mapper does not reduce: it reports the failure as its result,
 * and the finisher gives the run up. The state holds one run at a time and is cleared when the
 * bucket's result is out.
 */
@Internal
public final class ReducingFunction extends KeyedProcessFunction<Integer, KeyedRecord, WorkResult> {

    private static final long serialVersionUID = 1L;

    private final TaskReducer reducer;

    private transient ListState<byte[]> records;
    private transient ValueState<String> error;

    public ReducingFunction(TaskReducer reducer) {
        this.reducer = reducer;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        records =
                getRuntimeContext()
                        .getListState(new ListStateDescriptor<>("records", TaskTypes.BYTES));
        error = getRuntimeContext().getState(new ValueStateDescriptor<>("error", Types.STRING));
        TaskInfo task = getRuntimeContext().getTaskInfo();
        reducer.open(task.getIndexOfThisSubtask(), task.getAttemptNumber());
    }

    @Override
    public void processElement(KeyedRecord record, Context context, Collector<WorkResult> out)
            throws Exception {
        if (record.error() != null) {
            if (error.value() == null) {
                error.update(record.error());
            }
        } else {
            records.add(record.payload());
        }
        context.timerService().registerEventTimeTimer(context.timestamp());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<WorkResult> out)
            throws Exception {
        String failure = error.value();
        WorkResult result;
        if (failure != null) {
            result = new WorkResult(new byte[0], failure);
        } else {
            Iterable<byte[]> bucket = records.get();
            try {
                result = new WorkResult(reducer.reduce(bucket), null);
            } catch (Exception e) {
                result = new WorkResult(new byte[0], TaskErrors.describe(e));
            }
        }
        records.clear();
        error.clear();
        out.collect(result);
    }

    @Override
    public void close() throws Exception {
        reducer.close();
    }
}
