package dev.icebergflink.benchmarks.e2e;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * The reference launcher's counterpart of the suite's {@code CountingSink} (which builds on a
 * compatibility interface of our connector): a sink that only counts what reaches it, in a static
 * map keyed by a name, which works because the job runs on a MiniCluster in the same JVM.
 */
final class ReferenceCountingSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private final String name;

    ReferenceCountingSink(String name) {
        this.name = name;
        COUNTS.put(name, new AtomicLong());
    }

    /** The rows all subtasks of the sink {@code name} have seen. */
    static long count(String name) {
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
