package dev.icebergflink.source.assigner;

import dev.icebergflink.source.reader.SplitWatermarkExtractor;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Creates assigners that hand out splits in the order of their watermarks (the smallest lower bound
 * of the watermark column over the split's files), so that event time advances evenly across
 * readers and Flink's watermark alignment can hold fast readers back. Used automatically with
 * {@code watermark-column}; ties keep planning order.
 */
@PublicEvolving
public final class WatermarkOrderedSplitAssignerFactory implements SplitAssignerFactory {

    private static final long serialVersionUID = 1L;

    private final OrderedSplitAssignerFactory ordered;

    public WatermarkOrderedSplitAssignerFactory(SplitWatermarkExtractor extractor) {
        Objects.requireNonNull(extractor, "extractor");
        this.ordered =
                new OrderedSplitAssignerFactory(
                        (IcebergSourceSplit a, IcebergSourceSplit b) ->
                                Long.compare(
                                        extractor.extractWatermark(a),
                                        extractor.extractWatermark(b)));
    }

    @Override
    public SplitAssigner createAssigner() {
        return ordered.createAssigner();
    }
}
