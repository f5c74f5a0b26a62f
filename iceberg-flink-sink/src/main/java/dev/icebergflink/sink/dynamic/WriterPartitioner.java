package dev.icebergflink.sink.dynamic;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Picks the writer subtask of each {@link ResolvedRecord}: each table gets a window of {@code
 * min(writeParallelism, writers)} consecutive subtasks, starting at a subtask given by the table's
 * name (so that tables spread over the writers), and the record's distribution key picks one of
 * them.
 *
 * <p>It exists because one shuffle serves every table with its own distribution: the key is worked
 * out where the table's metadata is at hand ({@link RecordRouting}), so that this step needs none.
 */
@Internal
final class WriterPartitioner implements Partitioner<ResolvedRecord> {

    private static final long serialVersionUID = 1L;

    @Override
    public int partition(ResolvedRecord record, int writers) {
        int window = Math.min(record.writeParallelism(), writers);
        // TableIdentifier's hash is built from its strings' hashes: the same in every JVM
        int first = Math.floorMod(record.table().hashCode(), writers);
        return (first + Math.floorMod(record.distributionKey(), window)) % writers;
    }

    /** The record itself as the key the partitioner reads. */
    static final class Self implements KeySelector<ResolvedRecord, ResolvedRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public ResolvedRecord getKey(ResolvedRecord record) {
            return record;
        }
    }
}
