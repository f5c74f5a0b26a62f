package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TableChange;
import dev.icebergflink.maintenance.task.Trigger;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when each maintenance task runs: sums the table's changes per task, and when a task is
 * due (its {@link TaskTrigger}), takes the topology's lock through its {@link LockCoordinator} and
 * sends the task a {@link Trigger}. It runs on one subtask.
 *
 * <p>One run at a time: after a trigger it waits until the lock remover has released the lock
 * ({@link LockEvent.Released}) before it considers any task again. At least {@code rateLimit}
 * passes between two triggers; when the lock is taken by another job, it asks again after {@code
 * lockCheckDelay}. Among due tasks it takes them in turn, starting after the last one it ran, so
 * that a task that is always due cannot starve the others.
 *
 * <p>Restore: the state holds the run in flight at the checkpoint. A restored manager first has the
 * coordinator clear the lock that run may hold (the run is gone with the failed job), then runs the
 * task again. The new run plans from the table as it is, so work the lost run committed is not done
 * twice.
 *
 * <p>Watermarks of the input are dropped: the tasks use their own to mark the end of a run.
 */
@Internal
public final class TriggerManager extends AbstractStreamOperator<Trigger>
        implements OneInputStreamOperator<TableChange, Trigger>,
                BoundedOneInput,
                LockedOperatorFactory.LockedOperator {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(TriggerManager.class);

    private final List<String> taskNames;
    private final List<TaskTrigger> triggers;
    private final long rateLimitMillis;
    private final long lockCheckDelayMillis;

    private transient OperatorEventGateway gateway;
    private transient ListState<byte[]> checkpointed;
    private transient TriggerManagerState state;
    private transient boolean recovering;
    private transient int rerunTask;
    private transient long awaitedTimestamp;
    private transient int awaitedTask;
    private transient long timerAt;
    private transient List<Counter> triggered;
    private transient boolean inputEnded;

    public TriggerManager(
            List<String> taskNames,
            List<TaskTrigger> triggers,
            long rateLimitMillis,
            long lockCheckDelayMillis) {
        this.taskNames = List.copyOf(taskNames);
        this.triggers = List.copyOf(triggers);
        this.rateLimitMillis = rateLimitMillis;
        this.lockCheckDelayMillis = lockCheckDelayMillis;
    }

    @Override
    public void connect(OperatorEventGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        checkpointed =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "trigger-manager",
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        long now = now();
        TriggerManagerState restored = null;
        for (byte[] bytes : checkpointed.get()) {
            restored =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(
                            new TriggerManagerStateSerializer(), bytes);
        }
        rerunTask = TriggerManagerState.NONE;
        if (restored == null) {
            state = TriggerManagerState.fresh(triggers.size(), now);
        } else {
            state = restored.resize(triggers.size(), now);
            if (state.inFlightTask() != TriggerManagerState.NONE) {
                rerunTask = state.inFlightTask();
                recovering = true;
                LOG.info(
                        "Task {} was running when the job stopped; its lock is cleared and it runs"
                                + " again",
                        taskNames.get(rerunTask));
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        awaitedTask = TriggerManagerState.NONE;
        timerAt = Long.MAX_VALUE;
        triggered = new ArrayList<>();
        for (String name : taskNames) {
            triggered.add(TaskMetrics.group(getMetricGroup(), name).counter("triggered"));
        }
        if (recovering) {
            askToRecover();
        } else {
            evaluate();
        }
    }

    /**
     * Asks the coordinator to clear a lock left behind, and to be asked again if no answer comes.
     */
    private void askToRecover() {
        gateway.sendEventToCoordinator(new LockEvent.Recover());
        schedule(now() + lockCheckDelayMillis);
    }

    @Override
    public void processElement(StreamRecord<TableChange> element) {
        state.accumulate(element.getValue());
        evaluate();
    }

    /**
     * The changes ended (a bounded writer finished): no run starts any more, since the tasks end
     * with this operator. A run already triggered completes.
     */
    @Override
    public void endInput() {
        inputEnded = true;
    }

    @Override
    public void processWatermark(Watermark mark) {
        // The tasks' own watermarks mark their runs: see the class comment.
    }

    @Override
    public void handleOperatorEvent(OperatorEvent event) {
        LOG.debug(
                "Event {} (recovering {}, awaiting task {}, in flight {})",
                event,
                recovering,
                awaitedTask,
                state.inFlightTask());
        if (event instanceof LockEvent.Reply reply) {
            lockReplied(reply);
        } else if (event instanceof LockEvent.Released released) {
            if (state.inFlightTask() != TriggerManagerState.NONE
                    && state.inFlightTimestamp() == released.timestamp()) {
                state.ended();
                evaluate();
            }
        } else if (event instanceof LockEvent.Recovered recovered) {
            if (recovering && recovered.done()) {
                recovering = false;
                state.ended();
                evaluate();
            }
        } else {
            throw new IllegalArgumentException("Unexpected event " + event);
        }
    }

    private void lockReplied(LockEvent.Reply reply) {
        if (inputEnded
                || awaitedTask == TriggerManagerState.NONE
                || reply.timestamp() != awaitedTimestamp) {
            return;
        }
        int task = awaitedTask;
        awaitedTask = TriggerManagerState.NONE;
        if (!reply.granted()) {
            LOG.debug("The maintenance lock is taken; asking again in {} ms", lockCheckDelayMillis);
            schedule(now() + lockCheckDelayMillis);
            return;
        }
        boolean rerun = task == rerunTask;
        if (rerun) {
            rerunTask = TriggerManagerState.NONE;
        }
        state.triggered(task, reply.timestamp(), now());
        triggered.get(task).inc();
        LOG.info("Triggering maintenance task {} (run {})", taskNames.get(task), reply.timestamp());
        output.collect(
                new StreamRecord<>(new Trigger(task, reply.timestamp(), rerun), reply.timestamp()));
    }

    /** Triggers the next due task, or schedules the next look. */
    private void evaluate() {
        if (inputEnded
                || recovering
                || awaitedTask != TriggerManagerState.NONE
                || state.inFlightTask() != TriggerManagerState.NONE) {
            return;
        }
        long now = now();
        if (state.lastTriggerMillis() != Long.MIN_VALUE
                && now < state.lastTriggerMillis() + rateLimitMillis) {
            schedule(state.lastTriggerMillis() + rateLimitMillis);
            return;
        }
        int due = dueTask(now);
        if (due == TriggerManagerState.NONE) {
            long next = Long.MAX_VALUE;
            for (int i = 0; i < triggers.size(); i++) {
                next = Math.min(next, triggers.get(i).intervalDeadline(state.lastRunMillis(i)));
            }
            schedule(next);
            return;
        }
        awaitedTask = due;
        awaitedTimestamp = Math.max(now, state.lastTriggerTimestamp() + 1);
        askForLock();
    }

    /**
     * Asks for the lock for the awaited run, and to be asked again if no answer comes within the
     * lock check delay (an answer lost in a JobManager failover); the coordinator answers a
     * repeated request for the run it granted with yes again.
     */
    private void askForLock() {
        LOG.debug("Asking for the lock for task {} (run {})", awaitedTask, awaitedTimestamp);
        gateway.sendEventToCoordinator(new LockEvent.Request(awaitedTimestamp));
        schedule(now() + lockCheckDelayMillis);
    }

    /** The first due task after the one that ran last (in turn), or NONE. */
    private int dueTask(long now) {
        if (rerunTask != TriggerManagerState.NONE) {
            return rerunTask;
        }
        int tasks = triggers.size();
        int start = state.inFlightTask() == TriggerManagerState.NONE ? lastRunTask() + 1 : 0;
        for (int k = 0; k < tasks; k++) {
            int task = Math.floorMod(start + k, tasks);
            if (triggers.get(task).isDue(state.changes(task), state.lastRunMillis(task), now)) {
                return task;
            }
        }
        return TriggerManagerState.NONE;
    }

    private int lastRunTask() {
        int last = -1;
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < triggers.size(); i++) {
            if (state.lastRunMillis(i) > latest) {
                latest = state.lastRunMillis(i);
                last = i;
            }
        }
        return last;
    }

    private void schedule(long at) {
        if (at == Long.MAX_VALUE || at >= timerAt) {
            return;
        }
        timerAt = at;
        getProcessingTimeService()
                .registerTimer(
                        at,
                        time -> {
                            if (timerAt == at) {
                                timerAt = Long.MAX_VALUE;
                            }
                            if (recovering) {
                                askToRecover();
                            } else if (awaitedTask != TriggerManagerState.NONE) {
                                askForLock();
                            } else {
                                evaluate();
                            }
                        });
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        checkpointed.update(
                List.of(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                new TriggerManagerStateSerializer(), state)));
    }

    private long now() {
        return getProcessingTimeService().getCurrentProcessingTime();
    }
}
