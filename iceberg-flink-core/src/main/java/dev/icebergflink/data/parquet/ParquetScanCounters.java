package dev.icebergflink.data.parquet;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the batched Parquet reader skipped, counted over the whole JVM.
 *
 * <p>It exists so that tests can show that a pruning rule really skipped rows, pages or row groups
 * (the rows alone cannot show it: pruning never changes them). Production code only adds to the
 * counters; they cost one atomic add per row group, never per row.
 */
final class ParquetScanCounters {

    /** Row groups the batched reader started (those Iceberg's row group filters left). */
    static final AtomicLong ROW_GROUPS_READ = new AtomicLong();

    /** Rows skipped because the page index showed that no row of their pages can match. */
    static final AtomicLong ROWS_SKIPPED_BY_PAGES = new AtomicLong();

    /** Pages of batched columns dropped without decoding. */
    static final AtomicLong PAGES_SKIPPED = new AtomicLong();

    /** Rows whose filter columns were read but that failed the filter, so were never built. */
    static final AtomicLong ROWS_SKIPPED_BY_FILTER = new AtomicLong();

    /** Bytes of page index read. */
    static final AtomicLong PAGE_INDEX_BYTES = new AtomicLong();

    private ParquetScanCounters() {}

    /** Sets every counter to zero. */
    static void reset() {
        ROW_GROUPS_READ.set(0);
        ROWS_SKIPPED_BY_PAGES.set(0);
        PAGES_SKIPPED.set(0);
        ROWS_SKIPPED_BY_FILTER.set(0);
        PAGE_INDEX_BYTES.set(0);
    }
}
