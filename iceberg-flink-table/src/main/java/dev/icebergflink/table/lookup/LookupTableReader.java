package dev.icebergflink.table.lookup;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.reader.RowDataConverter;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Reads the rows a lookup join sees: the table the SQL source planned with, through the same
 * loader, read plan (projection, pushed filters, case sensitivity, name mapping) and conversion to
 * the declared types as its scan, file by file with core's task reader (which applies position and
 * equality deletes and deletion vectors).
 *
 * <p>It exists so that the cache and the per-key lookup read identically, and so that neither loads
 * tables or converts rows in a way of its own. Rows come out as compact {@link
 * org.apache.flink.table.data.binary.BinaryRowData} copies of the declared type, safe to keep.
 *
 * <p>Which snapshot it reads: the {@code snapshot-id}, {@code tag} or {@code as-of-timestamp} of
 * the read options pin one (then the table never changes for the join); otherwise the head of the
 * {@code branch} option's branch, or of {@code main}.
 *
 * <p>Serializable until {@link #open()}, which runs on the TaskManager; not thread-safe after.
 */
@Internal
public final class LookupTableReader implements Serializable, Closeable {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final TableLoader loader;
    private final ScanContext plan;
    private final RowDataConverter<RowData> converter;
    private final RowType produced;

    private transient Table table;
    private transient RowDataFileTaskReader reader;
    private transient RowDataSerializer serializer;

    /**
     * @param tableName the SQL table, for messages
     * @param loader the loader of the SQL source
     * @param plan the source's read plan with its projection and pushed filters
     * @param converter the source's conversion of rows of the projected schema to the declared
     *     types
     * @param produced the declared type of the rows after projection
     */
    public LookupTableReader(
            String tableName,
            TableLoader loader,
            ScanContext plan,
            RowDataConverter<RowData> converter,
            RowType produced) {
        this.tableName = tableName;
        this.loader = loader.clone();
        this.plan = plan;
        this.converter = converter;
        this.produced = produced;
    }

    /** The SQL table, for messages. */
    public String tableName() {
        return tableName;
    }

    /** Loads the table and builds the file reader. */
    public void open() {
        loader.open();
        table = loader.loadTable();
        NameMapping mapping =
                plan.nameMapping() == null ? null : NameMappingParser.fromJson(plan.nameMapping());
        reader =
                new RowDataFileTaskReader(
                        plan.tableSchema(),
                        plan.projectedSchema(),
                        mapping,
                        plan.caseSensitive(),
                        table.io(),
                        table.encryption());
        serializer = new RowDataSerializer(produced);
    }

    /** Whether the read options pin one snapshot, so that the rows never change. */
    public boolean pinned() {
        return plan.snapshotId() != null || plan.tag() != null || plan.asOfTimestamp() != null;
    }

    /**
     * The snapshot to read now, or {@code null} for a table without one. Unless pinned, the table
     * metadata is refreshed first.
     */
    public Snapshot currentSnapshot() {
        if (plan.snapshotId() != null) {
            return table.snapshot(plan.snapshotId());
        }
        if (plan.tag() != null) {
            return table.snapshot(plan.tag());
        }
        if (plan.asOfTimestamp() != null) {
            return table.snapshot(SnapshotUtil.snapshotIdAsOfTime(table, plan.asOfTimestamp()));
        }
        table.refresh();
        return plan.branch() == null ? table.currentSnapshot() : table.snapshot(plan.branch());
    }

    /**
     * Whether the snapshots after {@code from} up to {@code to} only append rows: {@code to}
     * descends from {@code from} and every snapshot between is an {@code append} (or a {@code
     * replace}, which rewrites files without changing rows).
     */
    public boolean onlyAppendsBetween(Snapshot from, Snapshot to) {
        if (!SnapshotUtil.isAncestorOf(table, to.snapshotId(), from.snapshotId())) {
            return false;
        }
        for (Snapshot snapshot :
                SnapshotUtil.ancestorsBetween(table, to.snapshotId(), from.snapshotId())) {
            String operation = snapshot.operation();
            if (!DataOperations.APPEND.equals(operation)
                    && !DataOperations.REPLACE.equals(operation)) {
                return false;
            }
        }
        return true;
    }

    /** Reads every row of {@code snapshot} that passes the plan's filters and {@code extra}. */
    public void read(Snapshot snapshot, Expression extra, Consumer<RowData> rows) {
        read(table.newScan().useSnapshot(snapshot.snapshotId()), extra, rows);
    }

    /** Reads the rows appended after {@code from} up to {@code to}. */
    public void readAppended(Snapshot from, Snapshot to, Consumer<RowData> rows) {
        read(
                table.newIncrementalAppendScan()
                        .fromSnapshotExclusive(from.snapshotId())
                        .toSnapshot(to.snapshotId()),
                Expressions.alwaysTrue(),
                rows);
    }

    private <S extends Scan<S, FileScanTask, ?>> void read(
            S scan, Expression extra, Consumer<RowData> rows) {
        Expression filter = extra;
        for (Expression pushed : plan.filters()) {
            filter = Expressions.and(filter, pushed);
        }
        try (CloseableIterable<FileScanTask> tasks =
                scan.caseSensitive(plan.caseSensitive()).filter(filter).planFiles()) {
            for (FileScanTask task : tasks) {
                try (CloseableIterable<RowData> read = reader.open(task)) {
                    for (RowData row : read) {
                        rows.accept(serializer.toBinaryRow(converter.convert(row)).copy());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Iceberg table " + tableName, e);
        }
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }
}
