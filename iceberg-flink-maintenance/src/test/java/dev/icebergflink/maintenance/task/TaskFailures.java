package dev.icebergflink.maintenance.task;

import java.util.function.Consumer;

/** Lets failover tests in other packages inject failures into maintenance runs. */
public final class TaskFailures {

    private TaskFailures() {}

    /** Runs {@code hook} with the trigger timestamp right after a run's plan left the planner. */
    public static void afterPlanning(Consumer<Long> hook) {
        TaskTestHooks.install(hook, null);
    }

    /** Runs {@code hook} with the trigger timestamp right before a run's finisher commits. */
    public static void beforeFinishing(Consumer<Long> hook) {
        TaskTestHooks.install(null, hook);
    }

    /** Removes every hook. */
    public static void clear() {
        TaskTestHooks.clear();
    }
}
