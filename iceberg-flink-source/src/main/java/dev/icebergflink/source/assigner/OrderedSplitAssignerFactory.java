package dev.icebergflink.source.assigner;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;

/**
 * Creates assigners that hand out splits in the order of a comparator; by default by the data
 * sequence number of their files (oldest data first), so that a reader sees rows in commit order as
 * far as split boundaries allow.
 *
 * <p>Ordering by sequence number has two requirements, both checked when the source is built
 * ({@link #validate}): the table has format v2 or later (v1 tables have no sequence numbers: every
 * file has 0), and each split holds ranges of one file only, i.e. {@code split-file-open-cost} is
 * at least {@code split-size} (a split of several files would be ordered by its oldest file only).
 * With a custom comparator nothing is checked. Ties keep planning order.
 */
@PublicEvolving
public final class OrderedSplitAssignerFactory implements SplitAssignerFactory {

    private static final long serialVersionUID = 1L;

    private final SerializableComparator comparator;
    private final boolean bySequenceNumber;

    /** Orders by the smallest data sequence number of each split's files. */
    public OrderedSplitAssignerFactory() {
        this.comparator = OrderedSplitAssignerFactory::compareBySequenceNumber;
        this.bySequenceNumber = true;
    }

    /** Orders by the given comparator (serializable, as the factory travels in the job graph). */
    public OrderedSplitAssignerFactory(SerializableComparator comparator) {
        this.comparator = java.util.Objects.requireNonNull(comparator, "comparator");
        this.bySequenceNumber = false;
    }

    @Override
    public void validate(Table table, long splitSize, long splitOpenFileCost) {
        if (!bySequenceNumber) {
            return;
        }
        int formatVersion = TableUtil.formatVersion(table);
        if (formatVersion < 2) {
            throw new IllegalArgumentException(
                    String.format(
                            "OrderedSplitAssignerFactory orders splits by data sequence number,"
                                    + " which tables have from format version 2 on; %s has"
                                    + " format version %d. Upgrade the table"
                                    + " ('format-version' = '2') or use another assigner.",
                            table.name(), formatVersion));
        }
        if (splitOpenFileCost < splitSize) {
            throw new IllegalArgumentException(
                    String.format(
                            "OrderedSplitAssignerFactory orders splits by data sequence number,"
                                    + " which needs one file per split: set"
                                    + " 'split-file-open-cost' (now %d) to at least 'split-size'"
                                    + " (now %d) so that files are not packed together.",
                            splitOpenFileCost, splitSize));
        }
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
