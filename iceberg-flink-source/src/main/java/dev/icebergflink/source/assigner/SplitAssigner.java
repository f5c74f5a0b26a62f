package dev.icebergflink.source.assigner;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.Collection;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Decides which pending split a reader gets next.
 *
 * <p>It exists so that assignment order is a small swappable strategy, as in Flink's own file
 * source: FIFO, by data sequence number, or by split watermark. The enumerator calls it from the
 * coordinator thread only; implementations need not be thread-safe.
 */
@PublicEvolving
public interface SplitAssigner {

    /** Adds newly planned splits. */
    void onDiscoveredSplits(Collection<IcebergSourceSplit> splits);

    /** Takes back splits of a failed reader; they are handed out again before or with new ones. */
    void onUnassignedSplits(Collection<IcebergSourceSplit> splits);

    /**
     * The next split for a reader, if any is pending.
     *
     * @param hostname the reader's host (for locality-aware assigners), may be {@code null}
     */
    Optional<IcebergSourceSplit> getNext(String hostname);

    /** The pending splits, for checkpoints; the assigner keeps them. */
    Collection<IcebergSourceSplit> state();

    /** How many splits are pending. */
    int pendingSplitCount();
}
