package dev.icebergflink.source.planning;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.ArrayList;
import java.util.List;

/** Test helper: a planning result with its paged scan read to the end, page by page. */
final class PagedScans {

    private PagedScans() {}

    /** The result with every split of its paged scan (if any) appended, pages of {@code size}. */
    static PlanningResult drain(PlanningResult result, SplitPageSource pages, int size)
            throws Exception {
        if (result.pagedScan() == null) {
            return result;
        }
        List<IcebergSourceSplit> splits = new ArrayList<>(result.splits());
        ScanCursor cursor = result.pagedScan();
        while (cursor != null) {
            SplitPage page = pages.nextPage(cursor, size);
            if (page.splits().size() > size) {
                throw new AssertionError("A page of " + page.splits().size() + " > " + size);
            }
            splits.addAll(page.splits());
            cursor = page.next();
        }
        return new PlanningResult(
                result.fromPosition(), result.toPosition(), splits, result.headTimestampMillis());
    }
}
