package dev.icebergflink.benchmarks.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * The freshness of a streaming append as a streaming read saw it: for every commit (snapshot) that
 * added rows, the time from the commit (the snapshot's timestamp, taken by the committer in this
 * JVM) to the arrival in the reader of the last of its rows. A commit's rows are found by the id
 * bounds of its data files: the generator's subtasks each emit one contiguous id range in order and
 * the writers are chained to them, so every data file holds a contiguous range; a file whose record
 * count does not match its bounds fails the attribution instead of guessing.
 *
 * @param latenciesMillis one latency per commit that added rows, in commit order
 */
record CommitFreshness(long[] latenciesMillis) {

    /** The field id of the benchmark schema's {@code id}. */
    private static final int ID_FIELD = 1;

    /** Measures the latency of every commit of {@code table} from the arrivals of its rows. */
    static CommitFreshness of(Table table, ArrivalSink.Arrivals arrivals) {
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        snapshots.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
        List<Long> latencies = new ArrayList<>();
        for (Snapshot snapshot : snapshots) {
            long last = -1;
            for (DataFile file : snapshot.addedDataFiles(table.io())) {
                long lower = bound(file.lowerBounds(), file);
                long upper = bound(file.upperBounds(), file);
                if (file.recordCount() != upper - lower + 1) {
                    throw new WrongAnswerException(
                            String.format(
                                    Locale.ROOT,
                                    "%s holds %d rows with ids %d to %d: not a contiguous range,"
                                            + " so its rows cannot be attributed to its commit",
                                    file.location(),
                                    file.recordCount(),
                                    lower,
                                    upper));
                }
                for (long id = lower; id <= upper; id++) {
                    long arrived = arrivals.millis(id);
                    if (arrived == 0) {
                        throw new WrongAnswerException(
                                "Row "
                                        + id
                                        + " of commit "
                                        + snapshot.snapshotId()
                                        + " never arrived");
                    }
                    last = Math.max(last, arrived);
                }
            }
            if (last >= 0) {
                latencies.add(last - snapshot.timestampMillis());
            }
        }
        return new CommitFreshness(latencies.stream().mapToLong(Long::longValue).toArray());
    }

    private static long bound(Map<Integer, java.nio.ByteBuffer> bounds, DataFile file) {
        if (bounds == null || bounds.get(ID_FIELD) == null) {
            throw new WrongAnswerException(file.location() + " has no bounds of the id column");
        }
        return Conversions.<Long>fromByteBuffer(Types.LongType.get(), bounds.get(ID_FIELD));
    }

    /** The commits that added rows. */
    int commits() {
        return latenciesMillis.length;
    }

    /**
     * The latency at or below which a fraction {@code p} of the commits arrived (nearest rank); -1
     * when there were no commits.
     */
    long percentile(double p) {
        if (latenciesMillis.length == 0) {
            return -1;
        }
        long[] sorted = latenciesMillis.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
