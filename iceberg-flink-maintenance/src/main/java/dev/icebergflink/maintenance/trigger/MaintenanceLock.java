package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TriggerLockFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.LongConsumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.operators.coordination.CoordinatorStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock of one maintenance topology, on the JobManager, shared by the coordinators of its
 * trigger manager and lock remover through the job's {@link CoordinatorStore}.
 *
 * <p>Without a {@link TriggerLockFactory} the lock is this object's own flag: it covers the tasks
 * of this job, and needs no service. With a factory the flag mirrors the factory's lock, which
 * other jobs see too. The object remembers whether this job took the lock, so that it releases only
 * its own lock when a run is cut short (a failover, a cancelled job).
 *
 * <p>Methods are called on the JobManager's coordinator thread; they are synchronized anyway.
 */
@Internal
final class MaintenanceLock {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceLock.class);
    private static final String STORE_KEY_PREFIX = "dev.icebergflink.maintenance.lock/";

    private final String name;
    private final TriggerLockFactory factory;
    private final TriggerLockFactory.Lock lock;
    private final TriggerLockFactory.Lock recoveryLock;
    private boolean held;
    private long holder;
    private LongConsumer releaseListener = timestamp -> {};
    private int users;

    private MaintenanceLock(String name, TriggerLockFactory factory) {
        this.name = name;
        this.factory = factory;
        if (factory != null) {
            factory.open();
            this.lock = factory.createLock();
            this.recoveryLock = factory.createRecoveryLock();
        } else {
            this.lock = null;
            this.recoveryLock = null;
        }
    }

    /**
     * The topology's lock in the job's store, created (and its factory opened) by the first
     * coordinator that asks; each caller must {@link #leave()} once.
     */
    static MaintenanceLock join(CoordinatorStore store, String name, TriggerLockFactory factory) {
        Object joined =
                store.compute(
                        STORE_KEY_PREFIX + name,
                        (key, existing) -> {
                            MaintenanceLock lock =
                                    existing == null
                                            ? new MaintenanceLock(name, factory)
                                            : (MaintenanceLock) existing;
                            lock.users++;
                            return lock;
                        });
        return (MaintenanceLock) joined;
    }

    /** Tells the trigger manager's coordinator when a run's lock is released. */
    synchronized void onRelease(LongConsumer listener) {
        this.releaseListener = listener;
    }

    /**
     * Takes the lock for the run triggered at {@code timestamp}, if nobody holds it. Asking again
     * for the same run (its first answer was lost) answers yes again.
     */
    synchronized boolean tryLock(long timestamp) {
        if (held) {
            return holder == timestamp;
        }
        if (lock != null && !lock.tryLock()) {
            return false;
        }
        held = true;
        holder = timestamp;
        return true;
    }

    /** Releases the lock of the run triggered at {@code timestamp}; other runs' locks stay. */
    synchronized void release(long timestamp) {
        if (!held || holder != timestamp) {
            LOG.debug("{}: release for run {} ignored, the lock is not its", name, timestamp);
            return;
        }
        unlock();
        releaseListener.accept(timestamp);
    }

    /**
     * Releases the lock if this job took it: its run was cut short by a failover or the end of the
     * job, and will never release it.
     */
    synchronized void releaseOwn() {
        if (held) {
            LOG.info("{}: releasing the lock of run {}, which was cut short", name, holder);
            unlock();
        }
    }

    /**
     * Clears a lock a run of this topology may have left behind before a restore, under the
     * recovery lock, so that two restoring topologies never clear each other's locks.
     *
     * @return false when another topology is recovering the same lock right now
     */
    synchronized boolean recover() {
        if (lock == null) {
            held = false;
            return true;
        }
        if (!recoveryLock.tryLock()) {
            return false;
        }
        try {
            if (lock.isHeld()) {
                LOG.info("{}: clearing the lock left behind by a run before the restore", name);
                lock.unlock();
            }
            held = false;
        } finally {
            recoveryLock.unlock();
        }
        return true;
    }

    private void unlock() {
        held = false;
        if (lock != null) {
            lock.unlock();
        }
    }

    /** Called once by each coordinator that joined; the last one closes the factory. */
    synchronized void leave(CoordinatorStore store) {
        users--;
        if (users > 0) {
            return;
        }
        releaseOwn();
        store.compute(
                STORE_KEY_PREFIX + name, (key, existing) -> existing == this ? null : existing);
        if (factory != null) {
            try {
                factory.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot close the lock factory of " + name, e);
            }
        }
    }
}
