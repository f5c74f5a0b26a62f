package dev.icebergflink.maintenance.trigger;

import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

/**
 * The messages between the maintenance operators and their lock coordinators on the JobManager.
 *
 * <p>The trigger manager asks for the lock ({@link Request}) and hears back ({@link Reply}); the
 * lock remover gives it back ({@link Release}), and the trigger manager hears of that ({@link
 * Released}) so that it may trigger the next run. A restored trigger manager whose run was in
 * flight asks to clear the lock that run may have left behind ({@link Recover}, {@link Recovered}).
 */
@Internal
public sealed interface LockEvent extends OperatorEvent {

    /** Trigger manager to coordinator: take the lock for the run triggered at {@code timestamp}. */
    record Request(long timestamp) implements LockEvent {}

    /** Coordinator to trigger manager: whether the lock was taken for the run. */
    record Reply(long timestamp, boolean granted) implements LockEvent {}

    /** Lock remover to coordinator: the run triggered at {@code timestamp} has ended. */
    record Release(long timestamp) implements LockEvent {}

    /**
     * Coordinator to trigger manager: the lock of the run triggered at {@code timestamp} is free.
     */
    record Released(long timestamp) implements LockEvent {}

    /** Trigger manager to coordinator: clear the lock a run before the restore may still hold. */
    record Recover() implements LockEvent {}

    /**
     * Coordinator to trigger manager: whether the lock was cleared (false while another topology of
     * the same lock recovers; the trigger manager asks again later).
     */
    record Recovered(boolean done) implements LockEvent {}
}
