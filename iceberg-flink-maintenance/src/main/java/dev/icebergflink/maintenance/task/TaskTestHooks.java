package dev.icebergflink.maintenance.task;

import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * Failure injection at a maintenance run's risky points: right after its plan left the planner (the
 * run is in flight and holds the lock), and right before its finisher commits.
 *
 * <p>It exists only for tests, and is the tasks' one test seam: a static one, because failover
 * tests run the tasks inside a MiniCluster, where a test cannot reach the instances Flink creates.
 * Nothing sets it in production, where both hooks do nothing. Tests that install hooks clear them
 * after each test.
 */
@Internal
final class TaskTestHooks {

    private static volatile Consumer<Long> afterPlanning;
    private static volatile Consumer<Long> beforeFinishing;

    private TaskTestHooks() {}

    /** Installs hooks that receive the run's trigger timestamp; null removes one. */
    static void install(Consumer<Long> afterPlan, Consumer<Long> beforeFinish) {
        afterPlanning = afterPlan;
        beforeFinishing = beforeFinish;
    }

    /** Removes both hooks. */
    static void clear() {
        install(null, null);
    }

    static void afterPlanning(long triggerTimestamp) {
        Consumer<Long> hook = afterPlanning;
        if (hook != null) {
            hook.accept(triggerTimestamp);
        }
    }

    static void beforeFinishing(long triggerTimestamp) {
        Consumer<Long> hook = beforeFinishing;
        if (hook != null) {
            hook.accept(triggerTimestamp);
        }
    }
}
