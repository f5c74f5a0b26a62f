package dev.icebergflink.source.planning;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs each task at once on the submitting thread.
 *
 * <p>It exists for paged planning: Iceberg plans with the executor it is given, and with this one
 * the planning tasks run in order on the thread that iterates the plan, so the split sequence does
 * not depend on timing.
 */
final class CallerThreadExecutor extends AbstractExecutorService {

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
