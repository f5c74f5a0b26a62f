package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteCommit;
import dev.icebergflink.maintenance.eqdelete.EqualityDeletePlanning;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteWork;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.expressions.Expressions;

/**
 * Runs {@code RewriteEqualityDeletes} once over a whole table, without a Flink job: the task's own
 * three steps (the planner, one worker per thread, the committer), called in the order and with the
 * serialized plans and results the task's operators exchange. It is the cheapest way for a
 * benchmark to convert a table with exactly the code a maintenance job runs; only Flink's
 * scheduling of the work items is replaced by a shared queue.
 */
final class EqualityDeleteRewrite {

    /**
     * What one run did.
     *
     * @param units the work items the planner made (about one read split of data files each)
     * @param filesAdded the position delete files or deletion vectors committed
     * @param filesRemoved the equality (and replaced) delete files removed
     * @param seconds the wall time of planning, conversion and commit
     */
    record Result(int units, long filesAdded, long filesRemoved, double seconds) {}

    private EqualityDeleteRewrite() {}

    /**
     * Converts every live equality delete of the table in one committed run.
     *
     * @param loader the table; cloned for each step as the task does
     * @param workers how many workers convert the planned units in parallel
     * @throws Exception when a step fails; a failed unit gives the run up (its files are deleted by
     *     the committer's abandon) and the table stays as it was
     */
    static Result run(TableLoader loader, int workers) throws Exception {
        long start = System.nanoTime();
        EqualityDeletePlanning planning =
                new EqualityDeletePlanning(
                        loader.clone(), Expressions.alwaysTrue(), true, Long.MAX_VALUE);
        EqualityDeleteCommit commit = new EqualityDeleteCommit(loader.clone());
        planning.open();
        commit.open();
        try {
            TaskPlanner.Plan plan = planning.plan(System.currentTimeMillis());
            byte[][] results = new byte[plan.items().size()][];
            Exception failure = convert(loader, plan.items(), workers, results);
            if (failure != null) {
                List<byte[]> done = new ArrayList<>();
                for (byte[] result : results) {
                    if (result != null) {
                        done.add(result);
                    }
                }
                commit.abandon(plan.header(), done);
                throw failure;
            }
            TaskFinisher.Outcome outcome = commit.finish(plan.header(), List.of(results));
            return new Result(
                    plan.items().size(),
                    outcome.filesAdded(),
                    outcome.filesRemoved(),
                    (System.nanoTime() - start) / 1e9);
        } finally {
            planning.close();
            commit.close();
        }
    }

    /**
     * Converts the items on up to {@code workers} threads, each with its own opened worker (subtask
     * 0, 1, ...), into {@code results}; returns the first failure, or null.
     */
    private static Exception convert(
            TableLoader loader, List<byte[]> items, int workers, byte[][] results)
            throws InterruptedException {
        int threads = Math.max(1, Math.min(workers, items.size()));
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int subtask = t;
                running.add(
                        pool.submit(
                                () -> {
                                    EqualityDeleteWork work =
                                            new EqualityDeleteWork(loader.clone());
                                    work.open(subtask, 0);
                                    try {
                                        for (int i = next.getAndIncrement();
                                                i < items.size();
                                                i = next.getAndIncrement()) {
                                            results[i] = work.process(items.get(i));
                                        }
                                    } finally {
                                        work.close();
                                    }
                                    return null;
                                }));
            }
            Exception failure = null;
            for (Future<Void> worker : running) {
                try {
                    worker.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure =
                                new IllegalStateException(
                                        "A unit of the equality-delete conversion failed",
                                        e.getCause());
                    }
                }
            }
            return failure;
        } finally {
            pool.shutdownNow();
        }
    }
}
