package dev.icebergflink.sink.writer;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.OperatorIOMetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/** A sink-writer metric group that remembers its counters by name. */
public final class TestingSinkWriterMetricGroup extends UnregisteredMetricsGroup
        implements SinkWriterMetricGroup {
    public final Map<String, Counter> counters = new HashMap<>();

    @Override
    public Counter counter(String name) {
        return counters.computeIfAbsent(name, n -> new SimpleCounter());
    }

    @Override
    public Counter getNumRecordsOutErrorsCounter() {
        return counter("numRecordsOutErrors");
    }

    @Override
    public Counter getNumRecordsSendErrorsCounter() {
        return counter("numRecordsSendErrors");
    }

    @Override
    public Counter getNumRecordsSendCounter() {
        return counter("numRecordsSend");
    }

    @Override
    public Counter getNumBytesSendCounter() {
        return counter("numBytesSend");
    }

    @Override
    public void setCurrentSendTimeGauge(Gauge<Long> gauge) {}

    @Override
    public OperatorIOMetricGroup getIOMetricGroup() {
        return UnregisteredMetricsGroup.createOperatorIOMetricGroup();
    }
}
