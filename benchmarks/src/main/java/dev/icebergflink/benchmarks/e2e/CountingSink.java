package dev.icebergflink.benchmarks.e2e;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that only counts what reaches it, so a read or generator workload costs nothing after the
 * part being measured and can still check its row count. The counts live in a static map keyed by a
 * name: this works because the benchmarks run on a local MiniCluster in the same JVM. It uses only
 * Flink's Sink V2 interface of the 2.x lines, so the launcher of Iceberg's own connector counts
 * with it too.
 */
public final class CountingSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private final String name;

    /** A sink that adds to the counter {@code name}, which starts at zero. */
    public CountingSink(String name) {
        this.name = name;
        COUNTS.put(name, new AtomicLong());
    }

    /** The rows all subtasks of the sink {@code name} have seen so far. */
    public static long count(String name) {
        AtomicLong count = COUNTS.get(name);
        if (count == null) {
            throw new IllegalArgumentException("No counting sink named '" + name + "'");
        }
        return count.get();
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        AtomicLong total = COUNTS.computeIfAbsent(name, n -> new AtomicLong());
        return new SinkWriter<>() {
            private long count;

            @Override
            public void write(T element, Context context) {
                count++;
            }

            @Override
            public void flush(boolean endOfInput) {
                total.addAndGet(count);
                count = 0;
            }

            @Override
            public void close() {
                total.addAndGet(count);
                count = 0;
            }
        };
    }
}
