package dev.icebergflink.sink.committer;

import java.util.function.Consumer;

/**
 * Failure injection at the committer's risky points, for failover tests that run committers inside
 * a MiniCluster (where the test cannot reach the committer instances Flink creates).
 *
 * <p>It exists only for tests; nothing sets it in production, where both hooks do nothing.
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
