package dev.icebergflink.sink.committer;

import java.util.function.Consumer;

/**
 * Failure injection at the committer's risky points: right before and right after Iceberg's commit
 * of a committable (e.g. a concurrent commit by another writer, a lost commit response, or a crash
 * after a commit that succeeded).
 *
 * <p>It exists only for tests, and is the committer's one test seam: a static one, because the
 * failover tests run committers inside a MiniCluster, where the test cannot reach the instances
 * Flink creates; unit tests use the same seam, so every test injects failures the same way. Nothing
 * sets it in production, where both hooks do nothing. Tests that install hooks clear them after
 * each test.
 */
final class CommitterTestHooks {

    private static volatile Consumer<IcebergCommittable> before;
    private static volatile Consumer<IcebergCommittable> after;

    private CommitterTestHooks() {}

    /** Installs hooks run right before / right after Iceberg's commit; null removes one. */
    static void install(
            Consumer<IcebergCommittable> beforeCommit, Consumer<IcebergCommittable> afterCommit) {
        before = beforeCommit;
        after = afterCommit;
    }

    /** Removes both hooks. */
    static void clear() {
        install(null, null);
    }

    static void beforeCommit(IcebergCommittable committable) {
        Consumer<IcebergCommittable> hook = before;
        if (hook != null) {
            hook.accept(committable);
        }
    }

    static void afterCommit(IcebergCommittable committable) {
        Consumer<IcebergCommittable> hook = after;
        if (hook != null) {
            hook.accept(committable);
        }
    }
}
