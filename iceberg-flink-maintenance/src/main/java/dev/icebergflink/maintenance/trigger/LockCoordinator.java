package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TriggerLockFactory;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager side of the trigger manager or of the lock remover: both hold the topology's
 * {@link MaintenanceLock}, the trigger manager's to take it, the lock remover's to give it back.
 *
 * <p>Running the lock here rather than in the operators is what lets one job lock without any
 * service: the JobManager is the one place both operators reach. It also gives failover a clean
 * rule: when the trigger manager's subtask fails, the job's maintenance region restarts with it
 * (every maintenance operator hangs off the trigger manager), so the run in flight is gone and its
 * lock is released here.
 *
 * <p>Coordinators keep no checkpoint data: what a restore needs is in the trigger manager's state.
 */
@Internal
final class LockCoordinator implements OperatorCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(LockCoordinator.class);

    /** Which operator the coordinator serves. */
    enum Role {
        TRIGGER_MANAGER,
        LOCK_REMOVER
    }

    private final Context context;
    private final Role role;
    private final String lockName;
    private final TriggerLockFactory factory;
    private MaintenanceLock lock;
    private SubtaskGateway triggerManager;
    private final java.util.List<LockEvent> undelivered = new java.util.ArrayList<>();

    LockCoordinator(Context context, Role role, String lockName, TriggerLockFactory factory) {
        this.context = context;
        this.role = role;
        this.lockName = lockName;
        this.factory = factory;
    }

    @Override
    public synchronized void start() {
        lock = MaintenanceLock.join(context.getCoordinatorStore(), lockName, factory);
        if (role == Role.TRIGGER_MANAGER) {
            lock.onRelease(this::released);
        }
    }

    @Override
    public synchronized void close() {
        if (lock != null) {
            lock.leave(context.getCoordinatorStore());
            lock = null;
        }
        triggerManager = null;
        undelivered.clear();
    }

    @Override
    public synchronized void handleEventFromOperator(
            int subtask, int attemptNumber, OperatorEvent event) {
        if (event instanceof LockEvent.Request request) {
            boolean granted = lock.tryLock(request.timestamp());
            send(new LockEvent.Reply(request.timestamp(), granted));
        } else if (event instanceof LockEvent.Release release) {
            lock.release(release.timestamp());
        } else if (event instanceof LockEvent.Recover) {
            send(new LockEvent.Recovered(lock.recover()));
        } else {
            throw new IllegalArgumentException(
                    "Unexpected event " + event + " for the maintenance lock " + lockName);
        }
    }

    private void released(long timestamp) {
        send(new LockEvent.Released(timestamp));
    }

    /**
     * Sends an event to the trigger manager, or keeps it until the trigger manager's subtask is
     * ready to receive events (a reply to a request sent from its {@code open()} can be ready
     * first).
     */
    private synchronized void send(LockEvent event) {
        if (triggerManager == null) {
            undelivered.add(event);
            return;
        }
        triggerManager.sendEvent(event);
    }

    @Override
    public void checkpointCoordinator(long checkpointId, CompletableFuture<byte[]> result) {
        result.complete(new byte[0]);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public synchronized void resetToCheckpoint(long checkpointId, byte[] checkpointData) {
        if (lock != null && role == Role.TRIGGER_MANAGER) {
            lock.releaseOwn();
        }
    }

    @Override
    public synchronized void subtaskReset(int subtask, long checkpointId) {
        if (role == Role.TRIGGER_MANAGER) {
            lock.releaseOwn();
        }
    }

    @Override
    public synchronized void executionAttemptFailed(
            int subtask, int attemptNumber, Throwable reason) {
        if (role == Role.TRIGGER_MANAGER) {
            triggerManager = null;
            undelivered.clear();
            lock.releaseOwn();
        }
    }

    @Override
    public synchronized void executionAttemptReady(
            int subtask, int attemptNumber, SubtaskGateway gateway) {
        if (role == Role.TRIGGER_MANAGER) {
            triggerManager = gateway;
            undelivered.forEach(gateway::sendEvent);
            undelivered.clear();
        }
    }

    /** Creates the coordinator on the JobManager. */
    static final class Provider implements OperatorCoordinator.Provider {

        private static final long serialVersionUID = 1L;

        private final OperatorID operatorId;
        private final Role role;
        private final String lockName;
        private final TriggerLockFactory factory;

        Provider(OperatorID operatorId, Role role, String lockName, TriggerLockFactory factory) {
            this.operatorId = operatorId;
            this.role = role;
            this.lockName = lockName;
            this.factory = factory;
        }

        @Override
        public OperatorID getOperatorId() {
            return operatorId;
        }

        @Override
        public OperatorCoordinator create(Context context) {
            return new LockCoordinator(context, role, lockName, factory);
        }
    }
}
