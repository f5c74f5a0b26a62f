package dev.icebergflink.source.assigner;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import org.apache.iceberg.FileScanTask;

/**
 * Creates assigners that hand out splits in the order of a comparator; by default by the data
 * sequence number of their files (oldest data first), so that a reader sees rows in commit order as
 * far as split boundaries allow.
 *
 * <p>Sequence numbers exist from table format v2 on; ordering by them is exact when each split
 * holds one file (raise {@code split-file-open-cost} to the split size). Ties keep planning order.
 */
public final class OrderedSplitAssignerFactory implements SplitAssignerFactory {

    private static final long serialVersionUID = 1L;

    private final SerializableComparator comparator;

    /** Orders by the smallest data sequence number of each split's files. */
    public OrderedSplitAssignerFactory() {
        this(OrderedSplitAssignerFactory::compareBySequenceNumber);
    }

    /** Orders by the given comparator (serializable, as the factory travels in the job graph). */
    public OrderedSplitAssignerFactory(SerializableComparator comparator) {
        this.comparator = comparator;
    }

    @Override
    public SplitAssigner createAssigner() {
        return new OrderedSplitAssigner(comparator);
    }

    /** The smallest data sequence number of the split's files ({@code Long.MAX_VALUE} if none). */
    public static long dataSequenceNumber(IcebergSourceSplit split) {
        long min = Long.MAX_VALUE;
        for (FileScanTask task : split.task().files()) {
            Long sequence = task.file().dataSequenceNumber();
            if (sequence != null) {
                min = Math.min(min, sequence);
            }
        }
        return min;
    }

    private static int compareBySequenceNumber(IcebergSourceSplit a, IcebergSourceSplit b) {
        return Long.compare(dataSequenceNumber(a), dataSequenceNumber(b));
    }

    /** A comparator of splits that can travel in the job graph. */
    @FunctionalInterface
    public interface SerializableComparator extends Comparator<IcebergSourceSplit>, Serializable {}

    /** A priority queue; ties broken by arrival order. */
    static final class OrderedSplitAssigner implements SplitAssigner {
        private record Entry(IcebergSourceSplit split, long arrival) {}

        private final PriorityQueue<Entry> pending;
        private long arrivals;

        OrderedSplitAssigner(Comparator<IcebergSourceSplit> comparator) {
            Comparator<Entry> bySplit = Comparator.comparing(Entry::split, comparator);
            this.pending = new PriorityQueue<>(bySplit.thenComparingLong(Entry::arrival));
        }

        @Override
        public void onDiscoveredSplits(Collection<IcebergSourceSplit> splits) {
            for (IcebergSourceSplit split : splits) {
                pending.add(new Entry(split, arrivals++));
            }
        }

        @Override
        public void onUnassignedSplits(Collection<IcebergSourceSplit> splits) {
            onDiscoveredSplits(splits);
        }

        @Override
        public Optional<IcebergSourceSplit> getNext(String hostname) {
            Entry next = pending.poll();
            return next == null ? Optional.empty() : Optional.of(next.split());
        }

        @Override
        public Collection<IcebergSourceSplit> state() {
            List<Entry> entries = new ArrayList<>(pending);
            entries.sort(pending.comparator());
            return entries.stream().map(Entry::split).toList();
        }

        @Override
        public int pendingSplitCount() {
            return pending.size();
        }
    }
}
