package dev.icebergflink.source.assigner;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Creates FIFO assigners: splits are handed out in planning order; splits given back by a failed
 * reader go first. The default assigner, and the only one SQL uses.
 */
@PublicEvolving
public final class SimpleSplitAssignerFactory implements SplitAssignerFactory {

    private static final long serialVersionUID = 1L;

    @Override
    public SplitAssigner createAssigner() {
        return new FifoSplitAssigner();
    }

    /** A queue of splits. */
    static final class FifoSplitAssigner implements SplitAssigner {
        private final Deque<IcebergSourceSplit> pending = new ArrayDeque<>();

        @Override
        public void onDiscoveredSplits(Collection<IcebergSourceSplit> splits) {
            pending.addAll(splits);
        }

        @Override
        public void onUnassignedSplits(Collection<IcebergSourceSplit> splits) {
            List<IcebergSourceSplit> reversed = new ArrayList<>(splits);
            for (int i = reversed.size() - 1; i >= 0; i--) {
                pending.addFirst(reversed.get(i));
            }
        }

        @Override
        public Optional<IcebergSourceSplit> getNext(String hostname) {
            return Optional.ofNullable(pending.pollFirst());
        }

        @Override
        public Collection<IcebergSourceSplit> state() {
            return List.copyOf(pending);
        }

        @Override
        public int pendingSplitCount() {
            return pending.size();
        }
    }
}
