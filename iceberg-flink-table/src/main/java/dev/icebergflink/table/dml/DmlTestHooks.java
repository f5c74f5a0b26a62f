package dev.icebergflink.table.dml;

import java.util.function.Consumer;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.iceberg.Table;

/**
 * A failure injection point right before the commit of a row-level statement, where a test makes
 * the concurrent commit that the statement's validation must detect.
 *
 * <p>It exists only for tests: the committer runs inside a MiniCluster, where a test cannot reach
 * the instance Flink creates, so the seam is static. Nothing sets it in production, where it does
 * nothing. Tests that install it clear it afterwards.
 */
@VisibleForTesting
final class DmlTestHooks {

    private static volatile Consumer<Table> beforeCommit;

    private DmlTestHooks() {}

    /** Runs {@code hook} with the refreshed table right before each statement's commit. */
    static void beforeCommit(Consumer<Table> hook) {
        beforeCommit = hook;
    }

    /** Removes the hook. */
    static void clear() {
        beforeCommit = null;
    }

    static void runBeforeCommit(Table table) {
        Consumer<Table> hook = beforeCommit;
        if (hook != null) {
            hook.accept(table);
        }
    }
}
