package dev.icebergflink.source.reader;

import dev.icebergflink.source.event.LimitReachedEvent;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * The source reader of one Iceberg source subtask: it pulls splits from the enumerator one at a
 * time (asking for the next when it has none left), reads them in one fetcher thread in batches,
 * and checkpoints each unfinished split at the position after its last emitted record, so a restore
 * resumes mid-split without loss or duplicates.
 *
 * <p>{@code limit} (negative for none) caps the records this subtask emits; once reached, further
 * splits are finished without being read, and the reader tells the enumerator ({@link
 * LimitReachedEvent}), which ends the read for every reader. The enumerator hands all splits of a
 * limited read to one reader, which makes this per-reader limit the source's limit.
 *
 * @param <T> the emitted record type
 */
@Internal
public final class IcebergSourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<
                RecordAndPosition<T>, T, IcebergSourceSplit, IcebergSourceSplitState> {

    private final SplitWatermarkExtractor watermarkExtractor;
    private final IcebergSourceReaderMetrics metrics;
    private final RecordLimiter limiter;
    private boolean limitReported;

    /**
     * @param readerFunction how splits are read and converted
     * @param limit the most records this subtask emits, negative for no limit
     * @param watermarkExtractor the split watermark source in watermark-column mode, else null
     * @param context the reader context (metrics, split requests)
     */
    public IcebergSourceReader(
            IcebergReaderFunction<T> readerFunction,
            long limit,
            SplitWatermarkExtractor watermarkExtractor,
            SourceReaderContext context) {
        this(
                readerFunction,
                RecordLimiter.of(limit),
                watermarkExtractor,
                new IcebergSourceReaderMetrics(context.metricGroup()),
                context);
    }

    private IcebergSourceReader(
            IcebergReaderFunction<T> readerFunction,
            RecordLimiter limiter,
            SplitWatermarkExtractor watermarkExtractor,
            IcebergSourceReaderMetrics metrics,
            SourceReaderContext context) {
        super(
                () ->
                        new IcebergSourceSplitReader<>(
                                Objects.requireNonNull(readerFunction, "readerFunction"),
                                limiter,
                                metrics::fileTaskFinished),
                new IcebergRecordEmitter<>(),
                context.getConfiguration(),
                context);
        this.watermarkExtractor = watermarkExtractor;
        this.metrics = metrics;
        this.limiter = limiter;
    }

    @Override
    public void start() {
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    public void addSplits(List<IcebergSourceSplit> splits) {
        metrics.splitsAssigned(splits.size());
        super.addSplits(splits);
    }

    @Override
    protected void onSplitFinished(Map<String, IcebergSourceSplitState> finishedSplitIds) {
        metrics.splitsFinished(finishedSplitIds.size());
        if (limiter.limited() && limiter.reached() && !limitReported) {
            limitReported = true;
            context.sendSourceEventToCoordinator(new LimitReachedEvent());
        }
        context.sendSplitRequest();
    }

    @Override
    protected IcebergSourceSplitState initializedState(IcebergSourceSplit split) {
        long watermark =
                watermarkExtractor == null
                        ? IcebergSourceSplitState.NO_WATERMARK
                        : watermarkExtractor.extractWatermark(split) - 1;
        return new IcebergSourceSplitState(split, watermark);
    }

    @Override
    protected IcebergSourceSplit toSplitType(String splitId, IcebergSourceSplitState state) {
        return state.toSplit();
    }
}
