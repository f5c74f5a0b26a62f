package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.RowDataStructLike;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.parquet.VectorizedReader;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Parquet file in batches of rows through Iceberg's batched Parquet read path, skipping the
 * rows a pushed-down filter rules out before building them.
 *
 * <p>It exists for what that path gives and the row path does not: each row group's column chunk
 * metadata, from which {@link ParquetBinaryRowReader#setRowGroup} picks the columns that Flink's
 * columnar decoders can read, and where each chunk's page index is. Everything else (projection by
 * field id, constants, metadata columns, defaults, promotions, nested values) is the row reader's,
 * so both paths return the same rows.
 *
 * <p>With a filter ({@link ParquetScanPushdown}), each row group is read in two steps. The page
 * index of the filter's columns gives the rows that may match ({@link ParquetRowRanges}); the
 * batched columns drop the pages holding none of them without decoding them, and the other rows are
 * skipped. Then, when the filter compiles over the row group's batched columns ({@link
 * ParquetRowFilter}), each remaining row is tested on its decoded filter values and built only if
 * it passes (late materialization). Skipping never changes the result: it leaves out only rows the
 * filter rejects, and the caller still evaluates the filter on the rows returned. Fields that are
 * not batched read and drop the value of every skipped row, which keeps row positions ({@code
 * _pos}) right.
 */
final class ParquetRowBatchReader implements VectorizedReader<ParquetRowBatch> {

    private static final Logger LOG = LoggerFactory.getLogger(ParquetRowBatchReader.class);

    private final ParquetBinaryRowReader rows;
    private final Schema expected;
    private final ParquetScanPushdown pushdown;

    /** The pushed-down filter bound to the expected schema, NOTs pushed down; null when none. */
    private final Expression bound;

    private ParquetPageIndex pageIndex;
    private boolean pageIndexBroken;

    private ParquetRowRanges ranges;
    private ParquetRowFilter filter;

    /**
     * The filter evaluated on built rows, for row groups where it does not compile over the batched
     * columns; null when there is no filter to evaluate.
     */
    private final Evaluator evaluator;

    private final RowDataStructLike view;

    ParquetRowBatchReader(ParquetBinaryRowReader rows, Schema expected) {
        this.rows = rows;
        this.expected = expected;
        this.pushdown = ParquetScanPushdown.current();
        this.bound = bind(expected, pushdown);
        if (bound != null) {
            pushdown.markApplied();
            this.evaluator =
                    new Evaluator(expected.asStruct(), pushdown.filter(), pushdown.caseSensitive());
            this.view = new RowDataStructLike(expected.asStruct(), rows.rowType());
        } else {
            this.evaluator = null;
            this.view = null;
        }
    }

    /**
     * Whether the rows {@link #read} returns are exactly those that match the pushed-down filter
     * (true when there is a filter and it binds to the projected columns).
     */
    boolean filtersExactly() {
        return bound != null;
    }

    private static Expression bind(Schema expected, ParquetScanPushdown pushdown) {
        return pushdown == null
                ? null
                : ParquetScanPushdown.bind(expected, pushdown.filter(), pushdown.caseSensitive());
    }

    @Override
    public ParquetRowBatch read(ParquetRowBatch reuse, int numRows) {
        ParquetRowBatch batch = reuse != null ? reuse : new ParquetRowBatch(numRows);
        batch.clear(numRows);
        if (bound == null) {
            if (rows.readsColumnar()) {
                rows.readBatch(batch, numRows);
            } else {
                for (int i = 0; i < numRows; i++) {
                    batch.add(rows.read(null));
                }
            }
            return batch;
        }
        long prunedByPages = 0;
        long prunedByFilter = 0;
        for (int i = 0; i < numRows; i++) {
            long row = rows.row();
            if (ranges != null && !ranges.contains(row)) {
                rows.skip();
                prunedByPages++;
            } else if (filter != null) {
                if (filter.test(row)) {
                    batch.add(rows.read(null));
                } else {
                    rows.skip();
                    prunedByFilter++;
                }
            } else {
                // the filter does not compile over this row group's batched columns
                RowData built = rows.read(null);
                if (evaluator.eval(view.wrap(built))) {
                    batch.add(built);
                }
            }
        }
        ParquetScanCounters.ROWS_SKIPPED_BY_PAGES.addAndGet(prunedByPages);
        ParquetScanCounters.ROWS_SKIPPED_BY_FILTER.addAndGet(prunedByFilter);
        return batch;
    }

    @Override
    public void setBatchSize(int batchSize) {
        // batches are sized by each read call; the columns decode in their own fixed batches
    }

    @Override
    public void setRowGroupInfo(
            PageReadStore pages, Map<ColumnPath, ColumnChunkMetaData> metadata) {
        ParquetScanCounters.ROW_GROUPS_READ.incrementAndGet();
        ranges = null;
        filter = null;
        if (bound == null) {
            rows.setRowGroup(pages, metadata);
            return;
        }
        // the columns that will decode in batches in this row group, by field id
        Map<Integer, ParquetBatchedColumn<?>> batched = new HashMap<>();
        Map<Integer, Type> types = new HashMap<>();
        List<Types.NestedField> fields = expected.columns();
        for (int pos = 0; pos < rows.arity(); pos++) {
            ParquetBatchedColumn<?> column = rows.batchableColumn(pos);
            if (column != null
                    && column.decodes(
                            metadata.get(ColumnPath.get(column.descriptor().getPath())))) {
                batched.put(fields.get(pos).fieldId(), column);
                types.put(fields.get(pos).fieldId(), fields.get(pos).type());
            }
        }
        Map<ColumnPath, ParquetPageSelection> selections =
                selectPages(pages.getRowCount(), metadata, batched, types);
        rows.setRowGroup(pages, metadata, selections);
        filter = ParquetRowFilter.compile(bound, batched, types);
    }

    /** The page index's row ranges and the pages each batched column keeps; empty when none. */
    private Map<ColumnPath, ParquetPageSelection> selectPages(
            long rowCount,
            Map<ColumnPath, ColumnChunkMetaData> metadata,
            Map<Integer, ParquetBatchedColumn<?>> batched,
            Map<Integer, Type> types) {
        if (pageIndexBroken || pushdown.file() == null) {
            return Map.of();
        }
        Map<Integer, org.apache.parquet.column.ColumnDescriptor> descriptors = new HashMap<>();
        batched.forEach((id, column) -> descriptors.put(id, column.descriptor()));
        FilterPredicate predicate = ParquetPageFilters.convert(bound, descriptors, types);
        if (predicate == null) {
            return Map.of();
        }
        try {
            if (pageIndex == null) {
                pageIndex = new ParquetPageIndex(pushdown.file());
            }
            pageIndex.setRowGroup(metadata);
            ParquetRowRanges found =
                    ParquetRowRanges.compute(predicate, pageIndex, metadata.keySet(), rowCount);
            if (found.all()) {
                return Map.of();
            }
            ranges = found;
            if (found.rowCount() == 0) {
                // no row can match: every row is skipped and no page of any column decoded
                for (ParquetBatchedColumn<?> column : batched.values()) {
                    ParquetScanCounters.PAGES_SKIPPED.addAndGet(
                            pageCount(ColumnPath.get(column.descriptor().getPath())));
                }
                return Map.of();
            }
            Map<ColumnPath, ParquetPageSelection> selections = new HashMap<>();
            for (ParquetBatchedColumn<?> column : batched.values()) {
                ColumnPath path = ColumnPath.get(column.descriptor().getPath());
                OffsetIndex offsets;
                try {
                    offsets = pageIndex.getOffsetIndex(path);
                } catch (RuntimeException e) {
                    continue; // no offset index: the column decodes every page
                }
                ParquetPageSelection selection = ParquetPageSelection.of(offsets, found, rowCount);
                if (selection != null) {
                    selections.put(path, selection);
                    ParquetScanCounters.PAGES_SKIPPED.addAndGet(selection.droppedPages());
                }
            }
            return selections;
        } catch (RuntimeException e) {
            // an unreadable page index (say, of an encrypted file) only means no page skipping
            LOG.debug("Not skipping pages of {}: {}", pushdown.file().location(), e.toString());
            pageIndexBroken = true;
            ranges = null;
            return Map.of();
        }
    }

    private int pageCount(ColumnPath path) {
        try {
            return pageIndex.getOffsetIndex(path).getPageCount();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Whether the current row group's rows are built column by column when no filter applies. */
    boolean readsColumnar() {
        return rows.readsColumnar();
    }

    /** How many fields the current row group decodes in batches. */
    int batchedFieldCount() {
        return rows.batchedFieldCount();
    }

    @Override
    public void close() {
        // the pages belong to Iceberg's file reader; only the page index stream is ours
        if (pageIndex != null) {
            try {
                pageIndex.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
