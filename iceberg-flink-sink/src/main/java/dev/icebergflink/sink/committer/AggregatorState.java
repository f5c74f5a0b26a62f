package dev.icebergflink.sink.committer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The checkpointed state of a {@link CheckpointAggregator}: the highest checkpoint id it has seen
 * and the writers' results it has not yet turned into committables, by checkpoint id.
 *
 * <p>It exists as a value of its own so that its serializer ({@link AggregatorStateSerializer}) can
 * be versioned and golden-tested apart from the operator.
 */
final class AggregatorState<R> {

    private final long lastCheckpointId;
    private final TreeMap<Long, List<R>> pending;

    AggregatorState(long lastCheckpointId, Map<Long, List<R>> pending) {
        this.lastCheckpointId = lastCheckpointId;
        TreeMap<Long, List<R>> copy = new TreeMap<>();
        pending.forEach((id, results) -> copy.put(id, List.copyOf(results)));
        this.pending = copy;
    }

    /** The highest checkpoint id the aggregation has seen (0 before the first checkpoint). */
    long lastCheckpointId() {
        return lastCheckpointId;
    }

    /** Not yet emitted writer results, by checkpoint id, ascending. */
    Map<Long, List<R>> pending() {
        return Collections.unmodifiableMap(pending);
    }

    /** A mutable copy of the pending results. */
    TreeMap<Long, List<R>> mutablePending() {
        TreeMap<Long, List<R>> copy = new TreeMap<>();
        pending.forEach((id, results) -> copy.put(id, new ArrayList<>(results)));
        return copy;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AggregatorState<?> that)) {
            return false;
        }
        return lastCheckpointId == that.lastCheckpointId
                && pending.keySet().equals(that.pending.keySet());
    }

    @Override
    public int hashCode() {
        return Objects.hash(lastCheckpointId, pending.keySet());
    }

    @Override
    public String toString() {
        return "AggregatorState{lastCheckpointId="
                + lastCheckpointId
                + ", pendingCheckpoints="
                + pending.keySet()
                + "}";
    }
}
