package dev.icebergflink.source.reader;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;

/**
 * A reader output that records, in order, what the reader emits: records as their {@code
 * toString()} via a describer, and watermarks as {@code "wm:<split>:<value>"}.
 */
final class RecordingReaderOutput<T> implements ReaderOutput<T> {

    interface Describer<T> {
        String describe(T record);
    }

    private final Describer<T> describer;
    private final List<String> events = new ArrayList<>();
    private final List<T> records = new ArrayList<>();

    RecordingReaderOutput(Describer<T> describer) {
        this.describer = describer;
    }

    List<String> events() {
        return events;
    }

    List<T> records() {
        return records;
    }

    @Override
    public void collect(T record) {
        records.add(record);
        events.add(describer.describe(record));
    }

    @Override
    public void collect(T record, long timestamp) {
        collect(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        events.add("wm:" + watermark.getTimestamp());
    }

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<T> createOutputForSplit(String splitId) {
        return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
}
