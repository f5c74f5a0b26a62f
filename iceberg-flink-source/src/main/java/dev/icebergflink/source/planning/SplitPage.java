package dev.icebergflink.source.planning;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * One page of a paged scan.
 *
 * @param splits the next splits of the scan, in planning order
 * @param next the cursor after them, or {@code null} when the scan is exhausted
 */
@Internal
public record SplitPage(List<IcebergSourceSplit> splits, ScanCursor next) {

    public SplitPage {
        splits = List.copyOf(splits);
    }

    /** Whether the scan has no splits after this page. */
    public boolean exhausted() {
        return next == null;
    }
}
