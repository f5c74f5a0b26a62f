package dev.icebergflink.data.parquet;

import java.util.Arrays;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;

/**
 * The pages of one column chunk that hold a row a scan may need, and the spans of rows those pages
 * cover.
 *
 * <p>It exists so that a batched column ({@link ParquetBatchedColumn}) can skip whole pages without
 * decoding them: {@link #keptPages} hands its decoder only the kept pages, and the spans tell the
 * column which row of the row group each decoded value belongs to. The pages are found from the
 * chunk's offset index (the first row of each page) and the row ranges the page index filter left
 * ({@link ParquetRowRanges}). A dropped page is still taken from Iceberg's page reader (it is
 * decompressed there) but never decoded.
 */
final class ParquetPageSelection {

    private final boolean[] keep;
    private final long[] spanFrom;
    private final long[] spanTo;
    private final long keptRows;
    private final int droppedPages;

    private ParquetPageSelection(boolean[] keep, long[] spanFrom, long[] spanTo, long keptRows) {
        this.keep = keep;
        this.spanFrom = spanFrom;
        this.spanTo = spanTo;
        this.keptRows = keptRows;
        int dropped = 0;
        for (boolean kept : keep) {
            dropped += kept ? 0 : 1;
        }
        this.droppedPages = dropped;
    }

    /**
     * The pages of a chunk with offset index {@code pages} in a row group of {@code rowCount} rows
     * that hold a row of {@code ranges}; null when every page does (nothing to skip).
     */
    static ParquetPageSelection of(OffsetIndex pages, ParquetRowRanges ranges, long rowCount) {
        int count = pages.getPageCount();
        boolean[] keep = new boolean[count];
        long[] from = new long[count];
        long[] to = new long[count];
        int spans = 0;
        long kept = 0;
        for (int page = 0; page < count; page++) {
            long first = pages.getFirstRowIndex(page);
            long end = page + 1 < count ? pages.getFirstRowIndex(page + 1) : rowCount;
            keep[page] = ranges.overlaps(first, end);
            if (!keep[page]) {
                continue;
            }
            kept += end - first;
            if (spans > 0 && to[spans - 1] == first) {
                to[spans - 1] = end;
            } else {
                from[spans] = first;
                to[spans] = end;
                spans++;
            }
        }
        if (kept == rowCount) {
            return null;
        }
        return new ParquetPageSelection(
                keep, Arrays.copyOf(from, spans), Arrays.copyOf(to, spans), kept);
    }

    long[] spanFrom() {
        return spanFrom;
    }

    long[] spanTo() {
        return spanTo;
    }

    /** How many pages of the chunk are dropped. */
    int droppedPages() {
        return droppedPages;
    }

    /** The kept pages of {@code pages}, the chunk's page reader, in order. */
    PageReader keptPages(PageReader pages) {
        return new PageReader() {
            private int page;

            @Override
            public DictionaryPage readDictionaryPage() {
                return pages.readDictionaryPage();
            }

            @Override
            public long getTotalValueCount() {
                return keptRows; // one value per row: only top-level, unrepeated columns batch
            }

            @Override
            public DataPage readPage() {
                while (page < keep.length && !keep[page]) {
                    pages.readPage();
                    page++;
                }
                page++;
                return pages.readPage();
            }
        };
    }
}
