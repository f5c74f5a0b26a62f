package dev.icebergflink.maintenance.task;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a task's {@link TaskPlanner} for each trigger: emits the work items with the trigger's
 * timestamp, the {@link PlanHeader} on a side output for the finisher, and then a watermark at the
 * trigger's timestamp.
 *
 * <p>The watermark is how the run's end travels: Flink forwards it from every worker only after the
 * worker has passed on everything it received before it, so the finisher sees the watermark once
 * every item's result has arrived, however the items were spread. The operator drops watermarks of
 * its input, so that nothing but its own marks reaches the task.
 *
 * <p>Planning never fails the job: an exception becomes a header with the error, and the run is
 * reported as failed.
 */
@Internal
public final class PlanningOperator extends AbstractStreamOperator<byte[]>
        implements OneInputStreamOperator<Trigger, byte[]> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PlanningOperator.class);

    /** The side output the headers leave by. */
    public static final OutputTag<PlanHeader> HEADERS =
            new OutputTag<>("plan-headers", TaskTypes.PLAN_HEADER);

    private final TaskPlanner planner;

    public PlanningOperator(TaskPlanner planner) {
        this.planner = planner;
    }

    @Override
    public void open() throws Exception {
        super.open();
        planner.open();
    }

    @Override
    public void processElement(StreamRecord<Trigger> element) {
        long timestamp = element.getValue().timestamp();
        PlanHeader header;
        try {
            TaskPlanner.Plan plan = planner.plan(timestamp);
            List<byte[]> items = plan.items();
            for (byte[] item : items) {
                output.collect(new StreamRecord<>(item, timestamp));
            }
            header = new PlanHeader(plan.header(), items.size(), null);
        } catch (Exception e) {
            LOG.warn("Planning the maintenance run triggered at {} failed", timestamp, e);
            header = new PlanHeader(new byte[0], 0, TaskErrors.describe(e));
        }
        output.collect(HEADERS, new StreamRecord<>(header, timestamp));
        TaskTestHooks.afterPlanning(timestamp);
        output.emitWatermark(new Watermark(timestamp));
    }

    @Override
    public void processWatermark(Watermark mark) {
        // Only this operator's own marks travel through the task: see the class comment.
    }

    @Override
    public void close() throws Exception {
        try {
            planner.close();
        } finally {
            super.close();
        }
    }
}
