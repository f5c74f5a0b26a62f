package dev.icebergflink.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

/** Shared MiniCluster settings and collect helpers for the source ITCases. */
final class SourceITCaseSupport {

    static final int PARALLELISM = 2;

    private SourceITCaseSupport() {}

    /** One TaskManager with four slots, shared per test class. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(4)
                        .setConfiguration(new Configuration())
                        .build());
    }

    static StreamExecutionEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        return env;
    }

    /** Runs a bounded source to the end and returns its records. */
    static <T> List<T> collect(IcebergSource<T> source) throws Exception {
        StreamExecutionEnvironment env = env();
        List<T> out = new ArrayList<>();
        try (CloseableIterator<T> it =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg",
                                source.getProducedType())
                        .executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /** Takes {@code count} records from a running job's iterator, failing after the deadline. */
    static <T> List<T> take(CloseableIterator<T> it, int count, Duration deadline) {
        List<T> out = new ArrayList<>();
        long end = System.nanoTime() + deadline.toNanos();
        while (out.size() < count) {
            if (System.nanoTime() > end) {
                throw new AssertionError(
                        "Only " + out.size() + " of " + count + " records within " + deadline);
            }
            if (it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }
}
