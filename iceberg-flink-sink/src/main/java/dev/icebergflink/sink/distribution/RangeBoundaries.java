package dev.icebergflink.sink.distribution;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.SortKey;
import org.apache.iceberg.StructLike;

/**
 * The range boundaries of range distribution: {@code writers - 1} sort keys, ascending; writer
 * {@code w} takes the keys in {@code (b[w-1], b[w]]} (the first from the lowest, the last up to the
 * highest).
 *
 * <p>It exists to keep the two pure parts of range distribution testable on their own: computing
 * boundaries from weighted key samples ({@link #compute}) and routing a key ({@link #route}). A key
 * heavy enough to cover more than one writer's share appears several times as a boundary; its rows
 * are then spread over those writers and the next one (round robin), so one hot key does not
 * overload one writer.
 */
final class RangeBoundaries {

    private final List<SortKey> boundaries;
    private final Comparator<StructLike> comparator;

    RangeBoundaries(List<SortKey> boundaries, Comparator<StructLike> comparator) {
        this.boundaries = List.copyOf(boundaries);
        this.comparator = comparator;
    }

    /** A key sampled by a statistics subtask, standing for {@code weight} records. */
    static final class WeightedKey {
        final SortKey key;
        final double weight;

        WeightedKey(SortKey key, double weight) {
            this.key = key;
            this.weight = weight;
        }
    }

    /**
     * The boundaries that split the sampled weight into {@code writers} equal shares.
     *
     * @param samples weighted samples of all statistics subtasks
     * @param writers the number of writer subtasks
     * @param baseWeight extra weight of every distinct sampled key, as a fraction of one writer's
     *     share ({@code range-distribution-sort-key-base-weight}): values above 0 spread
     *     low-cardinality keys over more writers
     * @return {@code writers - 1} keys, ascending (repeated for hot keys); empty when nothing was
     *     sampled or there is one writer
     */
    static List<SortKey> compute(
            List<WeightedKey> samples,
            int writers,
            double baseWeight,
            Comparator<StructLike> comparator) {
        if (samples.isEmpty() || writers <= 1) {
            return List.of();
        }
        List<WeightedKey> sorted = new ArrayList<>(samples);
        sorted.sort((a, b) -> comparator.compare(a.key, b.key));
        List<SortKey> keys = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        double total = 0;
        for (WeightedKey sample : sorted) {
            int last = keys.size() - 1;
            if (last >= 0 && comparator.compare(keys.get(last), sample.key) == 0) {
                weights.set(last, weights.get(last) + sample.weight);
            } else {
                keys.add(sample.key);
                weights.add(sample.weight);
            }
            total += sample.weight;
        }
        double extra = Math.max(0, baseWeight) * total / writers;
        total += extra * keys.size();
        double share = total / writers;
        List<SortKey> boundaries = new ArrayList<>(writers - 1);
        double cumulative = 0;
        for (int i = 0; i < keys.size() && boundaries.size() < writers - 1; i++) {
            cumulative += weights.get(i) + extra;
            while (boundaries.size() < writers - 1
                    && cumulative >= share * (boundaries.size() + 1) - 1e-9 * total) {
                boundaries.add(keys.get(i));
            }
        }
        return boundaries;
    }

    /** The number of boundaries (writers - 1 once statistics exist). */
    int size() {
        return boundaries.size();
    }

    List<SortKey> keys() {
        return boundaries;
    }

    /**
     * The writer of {@code key}.
     *
     * @param spread a changing number (e.g. a record counter) to spread a hot key over its writers
     */
    int route(StructLike key, long spread) {
        int n = boundaries.size();
        int low = 0;
        int high = n;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (comparator.compare(boundaries.get(mid), key) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        int first = low;
        if (first == n || comparator.compare(boundaries.get(first), key) != 0) {
            return first;
        }
        int last = first;
        while (last + 1 < n && comparator.compare(boundaries.get(last + 1), key) == 0) {
            last++;
        }
        if (last == first) {
            return first;
        }
        int writers = last - first + 2;
        return first + (int) Math.floorMod(spread, (long) writers);
    }
}
