package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TableChange;
import dev.icebergflink.maintenance.api.TriggerLockFactory;
import dev.icebergflink.maintenance.task.TaskResult;
import dev.icebergflink.maintenance.task.TaskTypes;
import dev.icebergflink.maintenance.task.Trigger;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Builds the two ends of a maintenance topology around its tasks: the trigger manager after the
 * change stream, and the lock remover after the tasks' results.
 *
 * @param lockName the lock's name within the job (the table and the topology's uid suffix)
 * @param lockFactory the shared lock, or null for the job's own
 * @param uidPrefix the prefix of the operators' uids, or null for operators without uids
 * @param slotSharingGroup the operators' slot sharing group, or null for the default
 */
@Internal
public record MaintenanceTopology(
        String lockName,
        TriggerLockFactory lockFactory,
        String uidPrefix,
        String slotSharingGroup) {

    /** The trigger manager: one subtask, its output the triggers of every task. */
    public SingleOutputStreamOperator<Trigger> triggerManager(
            DataStream<TableChange> changes,
            List<String> taskNames,
            List<TaskTrigger> triggers,
            long rateLimitMillis,
            long lockCheckDelayMillis) {
        LockedOperatorFactory<TableChange, Trigger> factory =
                new LockedOperatorFactory<>(
                        new TriggerManager(
                                taskNames, triggers, rateLimitMillis, lockCheckDelayMillis),
                        LockCoordinator.Role.TRIGGER_MANAGER,
                        lockName,
                        lockFactory);
        SingleOutputStreamOperator<Trigger> manager =
                changes.transform("Maintenance trigger manager", TaskTypes.TRIGGER, factory)
                        .setParallelism(1)
                        .setMaxParallelism(1);
        place(manager, "trigger-manager");
        return manager;
    }

    /** The lock remover after the union of every task's results, and a sink that ends the graph. */
    public void lockRemover(DataStream<TaskResult> results, List<String> taskNames) {
        LockedOperatorFactory<TaskResult, Void> factory =
                new LockedOperatorFactory<>(
                        new LockRemover(taskNames),
                        LockCoordinator.Role.LOCK_REMOVER,
                        lockName,
                        lockFactory);
        SingleOutputStreamOperator<Void> remover =
                results.transform("Maintenance lock remover", Types.VOID, factory)
                        .setParallelism(1)
                        .setMaxParallelism(1);
        place(remover, "lock-remover");
        DataStreamSink<Void> end =
                remover.sinkTo(new DiscardingSink<>()).name("Maintenance end").setParallelism(1);
        if (uidPrefix != null) {
            end.uid(uidPrefix + "-end");
        }
    }

    private void place(SingleOutputStreamOperator<?> operator, String role) {
        if (uidPrefix != null) {
            operator.uid(uidPrefix + "-" + role);
        }
        if (slotSharingGroup != null) {
            operator.slotSharingGroup(slotSharingGroup);
        }
    }
}
