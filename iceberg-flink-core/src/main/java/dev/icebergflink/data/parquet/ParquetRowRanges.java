package dev.icebergflink.data.parquet;

import java.util.List;
import java.util.Set;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

/**
 * The rows of one row group that may match a filter according to the row group's page index, as
 * sorted, disjoint spans {@code [from, to)}.
 *
 * <p>It exists so that the batch reader can tell, row after row and in constant time, whether a row
 * is to be read ({@link #contains}, with a cursor that only moves forward), and so that {@link
 * ParquetPageSelection} can tell which pages hold such a row. The ranges come from Parquet's own
 * {@link ColumnIndexFilter}, which reads the column index (each page's min, max and null count) of
 * the filter's columns and maps the matching pages to rows through their offset indexes.
 */
final class ParquetRowRanges {

    private final long[] from;
    private final long[] to;
    private final long rowCount;
    private int cursor;

    private ParquetRowRanges(long[] from, long[] to, long rowCount) {
        this.from = from;
        this.to = to;
        this.rowCount = rowCount;
    }

    /**
     * The rows of a row group of {@code rowCount} rows that may match {@code filter}, from the page
     * index in {@code index}; {@code paths} are the row group's columns.
     */
    static ParquetRowRanges compute(
            FilterPredicate filter, ColumnIndexStore index, Set<ColumnPath> paths, long rowCount) {
        RowRanges ranges =
                ColumnIndexFilter.calculateRowRanges(
                        FilterCompat.get(filter), index, paths, rowCount);
        List<RowRanges.Range> list = ranges.getRanges();
        long[] from = new long[list.size()];
        long[] to = new long[list.size()];
        for (int i = 0; i < list.size(); i++) {
            from[i] = list.get(i).from;
            to[i] = list.get(i).to + 1; // Parquet's ranges include their last row
        }
        return new ParquetRowRanges(from, to, rowCount);
    }

    /** Whether every row of the row group may match (nothing to skip). */
    boolean all() {
        return from.length == 1 && from[0] == 0 && to[0] == rowCount;
    }

    /** How many rows may match. */
    long rowCount() {
        long count = 0;
        for (int i = 0; i < from.length; i++) {
            count += to[i] - from[i];
        }
        return count;
    }

    /** Whether a row of {@code [start, end)} may match. */
    boolean overlaps(long start, long end) {
        for (int i = 0; i < from.length; i++) {
            if (from[i] < end && start < to[i]) {
                return true;
            }
        }
        return false;
    }

    /** Whether row {@code row} may match; rows must be asked for in increasing order. */
    boolean contains(long row) {
        while (cursor < from.length && to[cursor] <= row) {
            cursor++;
        }
        return cursor < from.length && from[cursor] <= row;
    }
}
