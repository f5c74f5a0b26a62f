package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * Gives a split its event-time lower bound in epoch milliseconds, for the watermark-column mode:
 * readers emit that value minus 1 as the split's watermark before its first record, and the
 * watermark-ordered assigner can hand splits out in the same order.
 */
@Internal
@FunctionalInterface
public interface SplitWatermarkExtractor extends Serializable {

    /** The smallest event time (epoch millis) of any record in the split. */
    long extractWatermark(IcebergSourceSplit split);
}
