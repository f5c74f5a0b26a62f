package dev.icebergflink.source.planning;

import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.encryption.EncryptingFileIO;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Drops the data files a snapshot's new equality deletes cannot touch from its changes, by the
 * deletes' key values against each data file's column bounds.
 *
 * <p>Iceberg's scan planning already pairs an equality delete file with a data file only when the
 * partition, the sequence numbers and the two files' bounds allow it; but an upsert's delete file
 * holds keys from all over the key space, so its bounds span nearly every data file and each of
 * them would be read in full to find no removed row. Here the keys of one delete file are read (on
 * the planner, one delete file at a time, so memory is bounded by one file's keys) and a data file
 * keeps the delete only when some key lies within the file's lower and upper bound on every key
 * column. A column without bounds in the file, or of a type whose bounds are not compared here
 * (binary, fixed, UUID, nested), does not prune.
 */
@Internal
final class EqualityKeyPruning {

    private final Table table;
    private final DeleteLoader deleteLoader;

    EqualityKeyPruning(Table table) {
        this.table = table;
        EncryptingFileIO files = EncryptingFileIO.combine(table.io(), table.encryption());
        this.deleteLoader = new BaseDeleteLoader(files::newInputFile);
    }

    /**
     * {@code deletedRows} ({@link ChangeType#DELETED_ROWS} changes of one snapshot) without the
     * equality deletes that cannot remove a row of their data file, and without the changes left
     * with no added delete at all.
     */
    List<FileScanTask> prune(List<FileScanTask> deletedRows, Schema schema) {
        Map<String, DeleteFile> equalityDeletes = new LinkedHashMap<>();
        Map<String, List<ChangeFileScanTask>> filesOf = new LinkedHashMap<>();
        for (FileScanTask task : deletedRows) {
            ChangeFileScanTask change = (ChangeFileScanTask) task;
            for (DeleteFile delete : change.addedDeletes()) {
                if (delete.content() == FileContent.EQUALITY_DELETES) {
                    equalityDeletes.putIfAbsent(delete.location(), delete);
                    filesOf.computeIfAbsent(delete.location(), l -> new ArrayList<>()).add(change);
                }
            }
        }
        Map<ChangeFileScanTask, Set<String>> untouched = new IdentityHashMap<>();
        for (DeleteFile delete : equalityDeletes.values()) {
            List<ChangeFileScanTask> files = filesOf.get(delete.location());
            KeyRanges ranges = KeyRanges.of(schema, delete.equalityFieldIds());
            if (ranges == null || files.stream().noneMatch(file -> ranges.bounded(file.file()))) {
                continue;
            }
            List<Object[]> keys = ranges.sortedKeys(loadKeys(delete, ranges.keySchema()));
            for (ChangeFileScanTask file : files) {
                if (ranges.bounded(file.file()) && !ranges.anyWithin(keys, file.file())) {
                    untouched.computeIfAbsent(file, f -> new HashSet<>()).add(delete.location());
                }
            }
        }
        if (untouched.isEmpty()) {
            return deletedRows;
        }
        List<FileScanTask> pruned = new ArrayList<>(deletedRows.size());
        for (FileScanTask task : deletedRows) {
            ChangeFileScanTask change = (ChangeFileScanTask) task;
            Set<String> drop = untouched.get(change);
            if (drop == null) {
                pruned.add(change);
                continue;
            }
            List<DeleteFile> kept =
                    change.addedDeletes().stream()
                            .filter(delete -> !drop.contains(delete.location()))
                            .toList();
            if (!kept.isEmpty()) {
                pruned.add(
                        new ChangeFileScanTask(
                                change.rows(),
                                ChangeType.DELETED_ROWS,
                                change.commitSnapshotId(),
                                change.commitTimestampMillis(),
                                kept));
            }
        }
        return pruned;
    }

    private Iterable<StructLike> loadKeys(DeleteFile delete, Schema keySchema) {
        return deleteLoader.loadEqualityDeletes(List.of(delete), keySchema);
    }

    /** The key columns of one equality delete file whose bounds can be compared with its keys. */
    private static final class KeyRanges {

        private final Schema keySchema;
        private final int[] fieldIds;
        private final int[] positions;
        private final Type.PrimitiveType[] types;
        private final Comparator<Object>[] comparators;

        @SuppressWarnings("unchecked")
        private KeyRanges(Schema keySchema, List<Types.NestedField> compared) {
            this.keySchema = keySchema;
            int count = compared.size();
            this.fieldIds = new int[count];
            this.positions = new int[count];
            this.types = new Type.PrimitiveType[count];
            this.comparators = new Comparator[count];
            List<Types.NestedField> keyColumns = keySchema.columns();
            for (int i = 0; i < count; i++) {
                Types.NestedField field = compared.get(i);
                fieldIds[i] = field.fieldId();
                positions[i] = keyColumns.indexOf(field);
                types[i] = field.type().asPrimitiveType();
                comparators[i] = (Comparator<Object>) Comparators.forType(types[i]);
            }
        }

        /** The ranges of the comparable key columns, or {@code null} when none is comparable. */
        static KeyRanges of(Schema schema, List<Integer> equalityFieldIds) {
            Schema keySchema = TypeUtil.select(schema, new HashSet<>(equalityFieldIds));
            List<Types.NestedField> compared = new ArrayList<>();
            for (Types.NestedField field : keySchema.columns()) {
                if (comparable(field.type())) {
                    compared.add(field);
                }
            }
            return compared.isEmpty() ? null : new KeyRanges(keySchema, compared);
        }

        /**
         * Types whose delete-file values and bound values share one Java representation. Floating
         * point keys are left out: bounds exclude NaN, which a key may be.
         */
        private static boolean comparable(Type type) {
            switch (type.typeId()) {
                case BOOLEAN:
                case INTEGER:
                case LONG:
                case DATE:
                case TIME:
                case TIMESTAMP:
                case TIMESTAMP_NANO:
                case STRING:
                case DECIMAL:
                    return true;
                default:
                    return false;
            }
        }

        Schema keySchema() {
            return keySchema;
        }

        /** Whether the data file has bounds on every compared column. */
        boolean bounded(DataFile file) {
            Map<Integer, ByteBuffer> lower = file.lowerBounds();
            Map<Integer, ByteBuffer> upper = file.upperBounds();
            if (lower == null || upper == null) {
                return false;
            }
            for (int id : fieldIds) {
                if (lower.get(id) == null || upper.get(id) == null) {
                    return false;
                }
            }
            return true;
        }

        /** The compared values of each key, sorted by the first compared column, nulls first. */
        List<Object[]> sortedKeys(Iterable<StructLike> keys) {
            List<Object[]> values = new ArrayList<>();
            for (StructLike key : keys) {
                Object[] row = new Object[positions.length];
                for (int i = 0; i < positions.length; i++) {
                    row[i] = key.get(positions[i], Object.class);
                }
                values.add(row);
            }
            Comparator<Object> first = Comparator.nullsFirst(comparators[0]);
            values.sort((left, right) -> first.compare(left[0], right[0]));
            return values;
        }

        /** Whether one of the sorted keys lies within the file's bounds on every column. */
        boolean anyWithin(List<Object[]> keys, DataFile file) {
            Object[] lower = new Object[fieldIds.length];
            Object[] upper = new Object[fieldIds.length];
            for (int i = 0; i < fieldIds.length; i++) {
                lower[i] =
                        Conversions.fromByteBuffer(types[i], file.lowerBounds().get(fieldIds[i]));
                upper[i] =
                        Conversions.fromByteBuffer(types[i], file.upperBounds().get(fieldIds[i]));
            }
            // keys with a null first column may match rows whose column is null
            for (Object[] key : keys) {
                if (key[0] != null) {
                    break;
                }
                if (mayHoldNull(file, fieldIds[0]) && restWithin(key, lower, upper, file)) {
                    return true;
                }
            }
            for (int i = firstAtLeast(keys, lower[0]); i < keys.size(); i++) {
                Object[] key = keys.get(i);
                if (comparators[0].compare(key[0], upper[0]) > 0) {
                    return false;
                }
                if (restWithin(key, lower, upper, file)) {
                    return true;
                }
            }
            return false;
        }

        private boolean restWithin(Object[] key, Object[] lower, Object[] upper, DataFile file) {
            for (int i = 1; i < key.length; i++) {
                if (key[i] == null) {
                    if (!mayHoldNull(file, fieldIds[i])) {
                        return false;
                    }
                } else if (comparators[i].compare(key[i], lower[i]) < 0
                        || comparators[i].compare(key[i], upper[i]) > 0) {
                    return false;
                }
            }
            return true;
        }

        /** The index of the first key whose first column is not null and not below {@code low}. */
        private int firstAtLeast(List<Object[]> keys, Object low) {
            int from = 0;
            int to = keys.size();
            while (from < to) {
                int middle = (from + to) >>> 1;
                Object value = keys.get(middle)[0];
                if (value == null || comparators[0].compare(value, low) < 0) {
                    from = middle + 1;
                } else {
                    to = middle;
                }
            }
            return from;
        }

        private static boolean mayHoldNull(DataFile file, int fieldId) {
            Map<Integer, Long> nulls = file.nullValueCounts();
            Long count = nulls == null ? null : nulls.get(fieldId);
            return count == null || count > 0;
        }
    }
}
