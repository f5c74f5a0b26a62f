package dev.icebergflink.source.planning;

import org.apache.flink.annotation.Internal;

/**
 * Produces the pages of paged scans for an enumerator. Called on a planning thread, one call at a
 * time.
 */
@Internal
@FunctionalInterface
public interface SplitPageSource {

    /**
     * The next at most {@code maxSplits} splits of the scan at {@code cursor}.
     *
     * @throws Exception when planning fails, or a re-planned scan no longer matches the cursor
     */
    SplitPage nextPage(ScanCursor cursor, int maxSplits) throws Exception;
}
