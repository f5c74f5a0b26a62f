package dev.icebergflink.source.reader;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;

/**
 * Emits each record and moves its split's position past it; in watermark-column mode it first emits
 * the split's watermark (its event-time lower bound minus 1) before the split's first record, never
 * going backwards within this reader.
 *
 * @param <T> the emitted record type
 */
final class IcebergRecordEmitter<T>
        implements RecordEmitter<RecordAndPosition<T>, T, IcebergSourceSplitState> {

    private long lastWatermark = Long.MIN_VALUE;

    @Override
    public void emitRecord(
            RecordAndPosition<T> element, SourceOutput<T> output, IcebergSourceSplitState split) {
        if (split.watermarkPending()) {
            long watermark = split.takeWatermark();
            if (watermark > lastWatermark) {
                output.emitWatermark(new Watermark(watermark));
                lastWatermark = watermark;
            }
        }
        output.collect(element.record());
        split.updatePosition(element.fileOffset(), element.recordOffset());
    }
}
