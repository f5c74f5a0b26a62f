package dev.icebergflink.source.enumerator;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Decides when a streaming enumerator skips a planning round because readers fall behind (the rule
 * of Iceberg's own connector): while the pending splits are at least the splits of the last three
 * non-empty rounds together, planning more would only grow the state.
 *
 * <p>Rounds are recorded on the coordinator thread and read on the planning thread, so the methods
 * are synchronized.
 */
final class PlanningThrottle {

    static final int REMEMBERED_ROUNDS = 3;

    private final Deque<Integer> recentRounds = new ArrayDeque<>();
    private long threshold;

    /** Records the split count of a finished round; empty rounds do not count. */
    synchronized void roundPlanned(int splits) {
        if (splits == 0) {
            return;
        }
        recentRounds.addLast(splits);
        threshold += splits;
        if (recentRounds.size() > REMEMBERED_ROUNDS) {
            threshold -= recentRounds.removeFirst();
        }
    }

    /** Whether the next round should be skipped with this many splits pending. */
    synchronized boolean shouldPause(int pendingSplits) {
        return pendingSplits > 0 && pendingSplits >= threshold;
    }
}
