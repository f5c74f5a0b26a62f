package dev.icebergflink.source.reader;

import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.types.Types;

/**
 * Reads the {@link ChangeFileScanTask}s of a changelog split as rows with their Flink {@link
 * RowKind}: added rows as inserts, removed rows as deletes, and, on a table with (top-level)
 * identifier fields, a key that the snapshot both removes and adds as an update: {@code -U} for the
 * old row and {@code +U} for the new one.
 *
 * <p>It exists to keep the row kinds out of the plain file reading. Which keys a snapshot both
 * removes and adds is known only from all its changes, so {@link #pair} first reads the key columns
 * of every change of the split (cheap in columnar files) and keeps the two key sets: memory grows
 * with the rows one snapshot changed, never with the table. The split's tasks come removals first,
 * so every {@code -U}/{@code -D} of a key is emitted before its {@code +U}/{@code +I}.
 *
 * <p>Key columns the query does not project are read as extra trailing columns and dropped before
 * the row is emitted. The same task with the same deletes and filter gives the same rows in the
 * same order every time, which the split's record offsets rely on.
 */
@Internal
public final class ChangelogReading implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowDataFileTaskReader rows;
    private final RowDataFileTaskReader keys;
    private final RowType producedType;
    private final int producedWidth;
    private final int[] keyPositions;
    private final RowType keyType;

    private transient RowDataSerializer keySerializer;
    private transient RowDataSerializer producedSerializer;

    /**
     * @param tableSchema the table schema of the read (its identifier fields pair updates)
     * @param projected the columns the read emits
     */
    public ChangelogReading(
            Schema tableSchema,
            Schema projected,
            NameMapping nameMapping,
            boolean caseSensitive,
            FileIO io,
            EncryptionManager encryption) {
        List<Types.NestedField> keyFields = topLevelKeys(tableSchema);
        List<Types.NestedField> readColumns = new ArrayList<>(projected.columns());
        int[] positions = new int[keyFields.size()];
        for (int k = 0; k < keyFields.size(); k++) {
            Types.NestedField key = keyFields.get(k);
            int position = indexOf(readColumns, key.fieldId());
            if (position < 0) {
                readColumns.add(key);
                position = readColumns.size() - 1;
            }
            positions[k] = position;
        }
        Schema readSchema = new Schema(readColumns);
        this.rows =
                new RowDataFileTaskReader(
                        tableSchema, readSchema, nameMapping, caseSensitive, io, encryption);
        this.keys =
                keyFields.isEmpty()
                        ? null
                        : new RowDataFileTaskReader(
                                tableSchema,
                                new Schema(keyFields),
                                nameMapping,
                                caseSensitive,
                                io,
                                encryption);
        this.producedWidth = projected.columns().size();
        this.producedType = IcebergToFlinkTypeConverter.convertStruct(projected.asStruct());
        this.keyPositions = positions;
        this.keyType =
                keyFields.isEmpty()
                        ? null
                        : IcebergToFlinkTypeConverter.convertStruct(
                                new Schema(keyFields).asStruct());
    }

    /**
     * The identifier fields that pair updates: all of them when they are top-level columns, none
     * when one is nested (then a changed key comes out as a delete and an insert).
     */
    private static List<Types.NestedField> topLevelKeys(Schema tableSchema) {
        List<Types.NestedField> keys = new ArrayList<>();
        for (int id : tableSchema.identifierFieldIds()) {
            int position = indexOf(tableSchema.columns(), id);
            if (position < 0) {
                return List.of();
            }
            keys.add(tableSchema.columns().get(position));
        }
        keys.sort((a, b) -> Integer.compare(a.fieldId(), b.fieldId()));
        return keys;
    }

    private static int indexOf(List<Types.NestedField> columns, int fieldId) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).fieldId() == fieldId) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The keys that the changes of one split (one snapshot) both remove and add, read from the key
     * columns of its tasks; no pairing when the table has no identifier fields or the split only
     * adds or only removes.
     */
    Pairing pair(List<FileScanTask> tasks) {
        boolean removes = false;
        boolean adds = false;
        for (FileScanTask task : tasks) {
            if (task instanceof ChangeFileScanTask change) {
                removes |= change.type().removesRows();
                adds |= !change.type().removesRows();
            }
        }
        if (keys == null || !removes || !adds) {
            return Pairing.NONE;
        }
        Set<BinaryRowData> removed = new HashSet<>();
        Set<BinaryRowData> added = new HashSet<>();
        int[] all = IntStream.range(0, keyPositions.length).toArray();
        for (FileScanTask task : tasks) {
            ChangeFileScanTask change = (ChangeFileScanTask) task;
            Set<BinaryRowData> target = change.type().removesRows() ? removed : added;
            try (CloseableIterable<RowData> keyRows = open(keys, change)) {
                for (RowData row : keyRows) {
                    target.add(key(row, all));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot close the key read of " + task.file().location(), e);
            }
        }
        removed.retainAll(added);
        return new Pairing(removed);
    }

    /** Opens one change task as rows of the projected schema with their row kinds. */
    CloseableIterable<RowData> open(ChangeFileScanTask change, Pairing pairing) {
        boolean removes = change.type().removesRows();
        Function<RowData, RowData> emit =
                row -> {
                    RowKind kind =
                            pairing.pairs(() -> key(row, keyPositions))
                                    ? (removes ? RowKind.UPDATE_BEFORE : RowKind.UPDATE_AFTER)
                                    : (removes ? RowKind.DELETE : RowKind.INSERT);
                    RowData out = narrow(row);
                    out.setRowKind(kind);
                    return out;
                };
        return CloseableIterable.transform(open(rows, change), emit::apply);
    }

    private static CloseableIterable<RowData> open(
            RowDataFileTaskReader reader, ChangeFileScanTask change) {
        return change.type() == ChangeType.DELETED_ROWS
                ? reader.openDeletedRows(change.rows(), change.addedDeletes())
                : reader.open(change.rows());
    }

    /** The row without the key columns read only for pairing. */
    private RowData narrow(RowData row) {
        if (row.getArity() == producedWidth) {
            return row;
        }
        if (producedSerializer == null) {
            producedSerializer = new RowDataSerializer(producedType);
        }
        return producedSerializer
                .toBinaryRow(
                        ProjectedRowData.from(IntStream.range(0, producedWidth).toArray())
                                .replaceRow(row))
                .copy();
    }

    /** The key of a row, comparable by its bytes. */
    private BinaryRowData key(RowData row, int[] positions) {
        if (keySerializer == null) {
            keySerializer = new RowDataSerializer(keyType);
        }
        BinaryRowData key =
                keySerializer.toBinaryRow(ProjectedRowData.from(positions).replaceRow(row)).copy();
        key.setRowKind(RowKind.INSERT);
        return key;
    }

    /** The keys one split's changes both remove and add: those come out as updates. */
    static final class Pairing {

        static final Pairing NONE = new Pairing(Set.of());

        private final Set<BinaryRowData> updatedKeys;

        private Pairing(Set<BinaryRowData> updatedKeys) {
            this.updatedKeys = updatedKeys;
        }

        /** Whether the key (computed only when some key pairs) is one of the paired ones. */
        boolean pairs(Supplier<BinaryRowData> key) {
            return !updatedKeys.isEmpty() && updatedKeys.contains(key.get());
        }

        int size() {
            return updatedKeys.size();
        }
    }
}
