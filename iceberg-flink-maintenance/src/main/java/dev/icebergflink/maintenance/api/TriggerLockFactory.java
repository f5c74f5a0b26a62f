package dev.icebergflink.maintenance.api;

import java.io.Closeable;
import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Creates the locks that keep maintenance tasks of one table from running at the same time.
 *
 * <p>A {@link TableMaintenance} topology takes its lock before it starts a task and releases it
 * when the task has ended, so that at most one task (rewrite, expiration, orphan deletion...) works
 * on the table at any time. Without a factory the lock lives in the job's JobManager and covers the
 * tasks of that job; a factory backed by a shared service ({@link JdbcLockFactory}) also covers
 * maintenance that runs in other jobs, when they use the same lock id.
 *
 * <p>The lock operations run on the JobManager, inside the maintenance operators' coordinators; the
 * factory is serialized with the job graph and {@link #open()}ed there before the first lock is
 * created.
 *
 * <p>The recovery lock is held while a restored topology clears the lock its failed run may have
 * left behind, so that two restoring topologies of one lock id never clear each other's locks.
 */
@PublicEvolving
public interface TriggerLockFactory extends Serializable, Closeable {

    /** Opens connections; called once on the JobManager before any lock is created. */
    void open();

    /** The lock that a task holds while it runs. */
    Lock createLock();

    /** The lock that a restored topology holds while it clears a lock left behind. */
    Lock createRecoveryLock();

    /** A named, non-reentrant lock that can be released by any holder of the same factory. */
    @PublicEvolving
    interface Lock {

        /**
         * Takes the lock if nobody holds it.
         *
         * @return whether the lock was taken by this call
         */
        boolean tryLock();

        /** Whether anybody holds the lock. */
        boolean isHeld();

        /** Releases the lock, whoever took it; nothing happens when it is free. */
        void unlock();
    }
}
