package dev.icebergflink.source.enumerator;

import java.util.function.IntSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The enumerator's metrics, the ones operators watch to see whether readers keep up: {@code
 * assignedSplits} (counter), {@code pendingSplits} (gauge) and {@code enumerationLagMs} (gauge: how
 * far the planned position is behind the table head, by commit time; 0 when caught up or bounded).
 */
final class EnumeratorMetrics {

    private final Counter assignedSplits;
    private volatile long lagMillis;

    EnumeratorMetrics(MetricGroup group, IntSupplier pendingSplits) {
        this.assignedSplits = group.counter("assignedSplits");
        group.gauge("pendingSplits", pendingSplits::getAsInt);
        group.gauge("enumerationLagMs", () -> lagMillis);
    }

    void splitAssigned() {
        assignedSplits.inc();
    }

    void lag(long millis) {
        this.lagMillis = millis;
    }

    long assignedSplitCount() {
        return assignedSplits.getCount();
    }
}
