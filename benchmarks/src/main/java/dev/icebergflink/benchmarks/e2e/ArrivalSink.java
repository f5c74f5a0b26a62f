package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;

/**
 * The sink of the freshness workload's streaming read: it records, for every row of ids {@code [0,
 * rows)}, the wall-clock time it arrived, and counts rows that arrive twice, whose id is out of
 * range or whose values are not the generated ones (name, quantity and comment compared with {@link
 * BenchmarkRows}). Like {@link CountingSink} its state lives in a static map keyed by a name, which
 * works because the jobs run on local MiniClusters in the same JVM; it uses only Flink's Sink V2
 * interface, so the launcher of Iceberg's own connector records with it too.
 */
public final class ArrivalSink implements Sink<RowData> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, Arrivals> ARRIVALS = new ConcurrentHashMap<>();

    private final String name;
    private final BenchmarkRows data;

    /** A sink recording into the arrivals {@code name} of {@code rows} rows, all missing yet. */
    public ArrivalSink(String name, BenchmarkRows data, long rows) {
        this.name = name;
        this.data = data;
        ARRIVALS.put(name, new Arrivals(Math.toIntExact(rows)));
    }

    /** What the sink {@code name} has recorded so far. */
    public static Arrivals arrivals(String name) {
        Arrivals arrivals = ARRIVALS.get(name);
        if (arrivals == null) {
            throw new IllegalArgumentException("No arrival sink named '" + name + "'");
        }
        return arrivals;
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
        Arrivals arrivals = arrivals(name);
        arrivals.writers.incrementAndGet();
        return new SinkWriter<>() {
            @Override
            public void write(RowData row, Context context) {
                arrivals.record(row, data, System.currentTimeMillis());
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }

    /** The arrival times of one sink's rows and its error counts. */
    public static final class Arrivals {
        private final AtomicLongArray millis;
        private final AtomicLong arrived = new AtomicLong();
        private final AtomicLong duplicates = new AtomicLong();
        private final AtomicLong outOfRange = new AtomicLong();
        private final AtomicLong wrongValues = new AtomicLong();
        private final AtomicInteger writers = new AtomicInteger();

        Arrivals(int rows) {
            this.millis = new AtomicLongArray(rows);
        }

        void record(RowData row, BenchmarkRows data, long now) {
            long id = row.getLong(0);
            if (id < 0 || id >= millis.length()) {
                outOfRange.incrementAndGet();
                return;
            }
            if (!millis.compareAndSet((int) id, 0, now)) {
                duplicates.incrementAndGet();
                return;
            }
            RowData expected = data.rowData(id);
            if (!Objects.equals(row.getString(3), expected.getString(3))
                    || row.getInt(5) != expected.getInt(5)
                    || !Objects.equals(row.getString(9), expected.getString(9))) {
                wrongValues.incrementAndGet();
            }
            arrived.incrementAndGet();
        }

        /** The distinct rows that arrived so far. */
        public long arrived() {
            return arrived.get();
        }

        /** How many sink writers have started (one per subtask of the read). */
        public int writers() {
            return writers.get();
        }

        /** The time the row {@code id} arrived in epoch milliseconds, 0 if it has not. */
        public long millis(long id) {
            return millis.get(Math.toIntExact(id));
        }

        /** The rows expected. */
        public int rows() {
            return millis.length();
        }

        /**
         * Checks that every row arrived exactly once with its generated values.
         *
         * @throws WrongAnswerException naming what went wrong
         */
        public void check(String what) {
            if (arrived() != rows()
                    || duplicates.get() != 0
                    || outOfRange.get() != 0
                    || wrongValues.get() != 0) {
                throw new WrongAnswerException(
                        String.format(
                                "%s: %d of %d rows arrived, %d twice, %d with an id out of range,"
                                        + " %d with values that are not the generated ones",
                                what,
                                arrived(),
                                rows(),
                                duplicates.get(),
                                outOfRange.get(),
                                wrongValues.get()));
            }
        }
    }
}
