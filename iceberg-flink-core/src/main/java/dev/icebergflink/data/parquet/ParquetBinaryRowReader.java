package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.BinaryRowBatchBuilder;
import dev.icebergflink.data.row.BinaryRowBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.parquet.ColumnIterator;
import org.apache.iceberg.parquet.ParquetValueReader;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * Reads the top-level rows of a Parquet file as {@link BinaryRowData}, built with a {@link
 * BinaryRowBuilder}.
 *
 * <p>It exists because a binary row is what Flink copies cheaply between chained operators (one
 * array copy instead of a deep copy of a generic row), and because decoding straight into the
 * binary layout skips boxing. Iceberg's struct reader hands every field over as an object, so this
 * reader walks the fields itself: a primitive column of the file is read by its {@link
 * ParquetLeafReader} straight into the row field (null when the column's definition level says so);
 * every other field (nested structs, lists and maps, metadata columns, constants, defaults and
 * missing columns) is read by its Parquet value reader and written with {@link
 * BinaryRowBuilder#setValue}.
 *
 * <p>A primitive column may also have a {@link ParquetBatchedColumn}, which decodes its values a
 * batch at a time. The batched path uses it for every row group whose chunk of the column it can
 * decode ({@link #setRowGroup}); the row-at-a-time path ({@link #setPageSource}) never does.
 *
 * <p>Every call to {@link #read} returns a new, independent row; the reuse argument is ignored.
 */
final class ParquetBinaryRowReader implements ParquetValueReader<RowData> {

    /** How one field of the row is read: by a leaf reader or by a value reader. */
    static final class Field {
        private final ParquetLeafReader<?> leaf;
        private final int definitionLevel;
        private final ParquetValueReader<?> reader;
        private final ParquetBatchedColumn<?> batched;

        private Field(
                ParquetLeafReader<?> leaf,
                int definitionLevel,
                ParquetValueReader<?> reader,
                ParquetBatchedColumn<?> batched) {
            this.leaf = leaf;
            this.definitionLevel = definitionLevel;
            this.reader = reader;
            this.batched = batched;
        }

        /**
         * A primitive column of the file, read directly; the field is null where the column's
         * definition level is at most {@code definitionLevel} (-1 for a required column).
         */
        static Field direct(ParquetLeafReader<?> leaf, int definitionLevel) {
            return new Field(leaf, definitionLevel, null, null);
        }

        /**
         * This field with {@code column} to decode the same file column in batches where it can;
         * null leaves the field as it is.
         */
        Field batchedBy(ParquetBatchedColumn<?> column) {
            return column == null ? this : new Field(leaf, definitionLevel, reader, column);
        }

        /** A field read by {@code reader}, which handles its own nulls (option-wrapped). */
        static Field value(ParquetValueReader<?> reader) {
            return new Field(null, 0, reader, null);
        }

        private ParquetValueReader<?> reader() {
            return leaf != null ? leaf : reader;
        }
    }

    private final RowType rowType;
    private final BinaryRowBuilder builder;
    private final ParquetLeafReader<?>[] leaves;
    private final ParquetBatchedColumn<?>[] batchable;

    /** The batched columns of the current row group, by field; null where the leaf reads. */
    private final ParquetBatchedColumn<?>[] batched;

    private final int[] definitionLevels;
    private final ParquetValueReader<Object>[] readers;
    private final Object[] reuse;
    private final List<ParquetValueReader<?>> children;

    /** The row of the current row group the next {@link #read} or {@link #skip} is at. */
    private long row;

    /** Whether every field is read by a batched column in the current row group. */
    private boolean allBatched;

    /** Builds rows column by column; null when a field's type is not one it builds. */
    private final BinaryRowBatchBuilder columnBuilder;

    /** Whether the current row group's rows are built column by column ({@link #readBatch}). */
    private boolean columnar;

    /** Per field, the vector index of the current row in its batched column. */
    private final int[] firsts;

    /**
     * @param rowType the Flink type of the rows, one field per entry of {@code fields}
     * @param fields how each field is read, in row order
     */
    @SuppressWarnings("unchecked")
    ParquetBinaryRowReader(RowType rowType, List<Field> fields) {
        if (rowType.getFieldCount() != fields.size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The row type %s has %d fields but %d field readers were given",
                            rowType, rowType.getFieldCount(), fields.size()));
        }
        int arity = fields.size();
        this.rowType = rowType;
        this.builder = new BinaryRowBuilder(rowType);
        this.leaves = new ParquetLeafReader<?>[arity];
        this.batchable = new ParquetBatchedColumn<?>[arity];
        this.batched = new ParquetBatchedColumn<?>[arity];
        this.definitionLevels = new int[arity];
        this.readers = new ParquetValueReader[arity];
        this.reuse = new Object[arity];
        this.children = new ArrayList<>(arity);
        this.columnBuilder =
                rowType.getChildren().stream().allMatch(BinaryRowBatchBuilder::supports)
                        ? new BinaryRowBatchBuilder(rowType)
                        : null;
        this.firsts = new int[arity];
        for (int pos = 0; pos < arity; pos++) {
            Field field = fields.get(pos);
            leaves[pos] = field.leaf;
            batchable[pos] = field.batched;
            definitionLevels[pos] = field.definitionLevel;
            readers[pos] = (ParquetValueReader<Object>) field.reader;
            children.add(field.reader());
        }
    }

    @Override
    public RowData read(RowData ignored) {
        long current = row++;
        builder.begin();
        for (int pos = 0; pos < leaves.length; pos++) {
            ParquetBatchedColumn<?> column = batched[pos];
            ParquetLeafReader<?> leaf = leaves[pos];
            if (column != null) {
                column.readInto(builder, pos, current);
            } else if (leaf != null) {
                leaf.readInto(builder, pos, definitionLevels[pos]);
            } else {
                // the value is serialized into the row at once, so a nested row can be reused
                Object value = readers[pos].read(reuse[pos]);
                reuse[pos] = value;
                builder.setValue(pos, value);
            }
        }
        return builder.finish();
    }

    /**
     * Whether {@link #readBatch} may read the current row group: every field is a batched column
     * whose values the rows take as they are.
     */
    boolean readsColumnar() {
        return columnar;
    }

    /**
     * Reads the next {@code count} rows of the row group into {@code batch}, column by column: the
     * same rows {@link #read} returns one at a time, for a fraction of the calls. Only when {@link
     * #readsColumnar}.
     */
    void readBatch(ParquetRowBatch batch, int count) {
        int arity = leaves.length;
        int left = count;
        while (left > 0) {
            // as many rows as every column's decoded values still cover
            int rows = left;
            for (int pos = 0; pos < arity; pos++) {
                ParquetBatchedColumn<?> column = batched[pos];
                int first = column.indexOf(row);
                firsts[pos] = first;
                rows = Math.min(rows, column.valuesFrom(first));
            }
            columnBuilder.begin(rows);
            for (int pos = 0; pos < arity; pos++) {
                batched[pos].measureBatch(columnBuilder, pos, firsts[pos], rows);
            }
            columnBuilder.layOut();
            for (int pos = 0; pos < arity; pos++) {
                batched[pos].writeBatch(columnBuilder, pos, firsts[pos], rows);
            }
            for (int r = 0; r < rows; r++) {
                batch.add(columnBuilder.row(r));
            }
            row += rows;
            left -= rows;
        }
    }

    /** The row of the current row group the next {@link #read} or {@link #skip} is at. */
    long row() {
        return row;
    }

    /**
     * Skips the next row: batched columns are not touched (they are read by row number); every
     * other field still reads its value and drops it, so that its column (and {@code _pos}) stays
     * in step.
     */
    void skip() {
        row++;
        if (allBatched) {
            return;
        }
        builder.begin();
        for (int pos = 0; pos < leaves.length; pos++) {
            if (batched[pos] != null) {
                continue;
            }
            ParquetLeafReader<?> leaf = leaves[pos];
            if (leaf != null) {
                leaf.readInto(builder, pos, definitionLevels[pos]);
            } else {
                reuse[pos] = readers[pos].read(reuse[pos]);
            }
        }
    }

    /** The batched column field {@code pos} could read through, whatever the row group. */
    ParquetBatchedColumn<?> batchableColumn(int pos) {
        return batchable[pos];
    }

    /** The Flink type of the rows. */
    RowType rowType() {
        return rowType;
    }

    /** The number of fields of the rows. */
    int arity() {
        return leaves.length;
    }

    /** Starts a row group, reading every field's column value by value. */
    @Override
    public void setPageSource(PageReadStore pageStore) {
        setRowGroup(pageStore, Map.of());
    }

    /**
     * Starts a row group, decoding in batches the columns that have a batched reader and whose
     * chunk in {@code chunks} is in encodings it decodes; every other field reads value by value.
     * Exactly one reader of a column takes its pages.
     */
    void setRowGroup(PageReadStore pageStore, Map<ColumnPath, ColumnChunkMetaData> chunks) {
        setRowGroup(pageStore, chunks, Map.of());
    }

    /**
     * As {@link #setRowGroup(PageReadStore, Map)}, with the batched columns in {@code pages}
     * reading only the pages selected there.
     */
    void setRowGroup(
            PageReadStore pageStore,
            Map<ColumnPath, ColumnChunkMetaData> chunks,
            Map<ColumnPath, ParquetPageSelection> pages) {
        row = 0;
        allBatched = true;
        for (int pos = 0; pos < children.size(); pos++) {
            ParquetBatchedColumn<?> column = batchable[pos];
            ColumnPath path = column == null ? null : ColumnPath.get(column.descriptor().getPath());
            if (column != null && column.decodes(chunks.get(path))) {
                column.setPageSource(pageStore, pages.get(path));
                batched[pos] = column;
            } else {
                batched[pos] = null;
                allBatched = false;
                // metadata readers such as _pos need the pages too
                children.get(pos).setPageSource(pageStore);
            }
        }
        columnar = allBatched && columnBuilder != null;
        for (int pos = 0; columnar && pos < children.size(); pos++) {
            columnar = batched[pos].writesBatches();
        }
    }

    /** How many fields the current row group decodes in batches. */
    int batchedFieldCount() {
        int count = 0;
        for (ParquetBatchedColumn<?> column : batched) {
            count += column != null ? 1 : 0;
        }
        return count;
    }

    /**
     * The first column of a field that reads one, or null when every field is a constant, a
     * position or a null. Only a nested struct's column matters to Iceberg (its definition level
     * tells whether the struct is null); a top-level row is never null, so nothing asks.
     */
    @Override
    public ColumnIterator<?> column() {
        for (ParquetValueReader<?> child : children) {
            if (child.column() instanceof ColumnIterator<?> column) {
                return column;
            }
        }
        return null;
    }

    /**
     * The columns of all fields, in order. The element type, Iceberg's {@code TripleIterator}, is
     * not public, so the list is declared raw.
     */
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public List columns() {
        List all = new ArrayList<>();
        for (ParquetValueReader<?> child : children) {
            all.addAll(child.columns());
        }
        return all;
    }
}
