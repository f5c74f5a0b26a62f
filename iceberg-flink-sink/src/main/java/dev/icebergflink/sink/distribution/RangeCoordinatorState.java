package dev.icebergflink.sink.distribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The checkpointed state of the {@link RangeStatisticsCoordinator}: the current range boundaries
 * ({@link SortKeyCodec} bytes), the checkpoint whose statistics produced them and the number of
 * writers they were computed for (a restore with another writer count ignores them).
 *
 * <p>A value of its own so that {@link RangeCoordinatorStateSerializer} is versioned and
 * golden-tested apart from the coordinator.
 */
final class RangeCoordinatorState {

    static final RangeCoordinatorState EMPTY = new RangeCoordinatorState(-1L, 0, List.of());

    private final long checkpointId;
    private final int writers;
    private final List<byte[]> boundaries;

    RangeCoordinatorState(long checkpointId, int writers, List<byte[]> boundaries) {
        this.checkpointId = checkpointId;
        this.writers = writers;
        List<byte[]> copy = new ArrayList<>(boundaries.size());
        boundaries.forEach(b -> copy.add(b.clone()));
        this.boundaries = List.copyOf(copy);
    }

    long checkpointId() {
        return checkpointId;
    }

    int writers() {
        return writers;
    }

    List<byte[]> boundaries() {
        return boundaries;
    }

    boolean isEmpty() {
        return boundaries.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RangeCoordinatorState)) {
            return false;
        }
        RangeCoordinatorState that = (RangeCoordinatorState) o;
        if (checkpointId != that.checkpointId
                || writers != that.writers
                || boundaries.size() != that.boundaries.size()) {
            return false;
        }
        for (int i = 0; i < boundaries.size(); i++) {
            if (!Arrays.equals(boundaries.get(i), that.boundaries.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(checkpointId, writers, boundaries.size());
    }

    @Override
    public String toString() {
        return "RangeCoordinatorState{checkpoint="
                + checkpointId
                + ", writers="
                + writers
                + ", boundaries="
                + boundaries.size()
                + "}";
    }
}
