package dev.icebergflink.maintenance.eqdelete;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.iceberg.util.StructProjection;

/**
 * The rows of a unit's equality delete files, as one lookup: for a data row, the highest data
 * sequence number of a delete row with equal values in the delete's equality columns.
 *
 * <p>A data row of a data file with data sequence number {@code d} is deleted by the unit's
 * equality deletes exactly when that number is above {@code d}: some delete whose sequence number
 * is above {@code d} (so it applies to the file) has the row's values. Keeping only the highest
 * number per key makes one lookup per row and equality-column set, however many delete files there
 * are. Values are compared as Iceberg compares them for equality deletes (iceberg-data's {@link
 * DeleteLoader} reads them; nulls equal nulls).
 */
@Internal
public final class EqualityKeys {

    private final List<KeySet> keySets;
    private final long maxSequenceNumber;

    private EqualityKeys(List<KeySet> keySets, long maxSequenceNumber) {
        this.keySets = keySets;
        this.maxSequenceNumber = maxSequenceNumber;
    }

    /**
     * Loads the rows of {@code deletes}.
     *
     * @param deletes equality delete files with their data sequence numbers
     * @param tableSchema the schema their equality field ids are looked up in
     * @param rowSchema the schema of the data rows looked up later; it must hold every equality
     *     column ({@link #columns})
     * @param loader reads delete files
     */
    public static EqualityKeys load(
            List<DeleteFile> deletes, Schema tableSchema, Schema rowSchema, DeleteLoader loader) {
        Map<Set<Integer>, List<DeleteFile>> byColumns = new LinkedHashMap<>();
        long max = Long.MIN_VALUE;
        for (DeleteFile delete : deletes) {
            byColumns
                    .computeIfAbsent(
                            new TreeSet<>(delete.equalityFieldIds()), ids -> new ArrayList<>())
                    .add(delete);
            max = Math.max(max, sequenceNumber(delete));
        }
        List<KeySet> keySets = new ArrayList<>();
        for (Map.Entry<Set<Integer>, List<DeleteFile>> entry : byColumns.entrySet()) {
            Schema keySchema = keySchema(tableSchema, entry.getKey());
            StructLikeMap<Long> highest = StructLikeMap.create(keySchema.asStruct());
            for (DeleteFile delete : entry.getValue()) {
                long sequenceNumber = sequenceNumber(delete);
                StructLikeSet keys = loader.loadEqualityDeletes(List.of(delete), keySchema);
                for (StructLike key : keys) {
                    Long known = highest.get(key);
                    if (known == null || known < sequenceNumber) {
                        highest.put(key, sequenceNumber);
                    }
                }
            }
            keySets.add(new KeySet(StructProjection.create(rowSchema, keySchema), highest));
        }
        return new EqualityKeys(keySets, max);
    }

    /** The columns of {@code tableSchema} that the equality deletes compare, in schema order. */
    public static Schema columns(List<DeleteFile> deletes, Schema tableSchema) {
        Set<Integer> ids = new TreeSet<>();
        deletes.forEach(delete -> ids.addAll(delete.equalityFieldIds()));
        return keySchema(tableSchema, ids);
    }

    /**
     * The highest data sequence number of a delete row equal to {@code row} (a row of the schema
     * given to {@link #load}), or {@link Long#MIN_VALUE} when none is.
     */
    public long deletingSequenceNumber(StructLike row) {
        long found = Long.MIN_VALUE;
        for (KeySet keySet : keySets) {
            Long sequenceNumber = keySet.highest.get(keySet.projection.wrap(row));
            if (sequenceNumber != null && sequenceNumber > found) {
                found = sequenceNumber;
            }
        }
        return found;
    }

    /**
     * The highest data sequence number of the deletes; data files at or above it are unaffected.
     */
    public long maxSequenceNumber() {
        return maxSequenceNumber;
    }

    private static Schema keySchema(Schema tableSchema, Set<Integer> ids) {
        for (int id : ids) {
            if (tableSchema.findField(id) == null) {
                throw new IllegalStateException(
                        "Equality deletes on field id "
                                + id
                                + " cannot be converted: the table's schema has no such field");
            }
        }
        return TypeUtil.select(tableSchema, ids);
    }

    private static long sequenceNumber(DeleteFile delete) {
        Long sequenceNumber = delete.dataSequenceNumber();
        if (sequenceNumber == null) {
            throw new IllegalStateException(
                    "Equality delete file " + delete.location() + " has no data sequence number");
        }
        return sequenceNumber;
    }

    /** The delete keys of one set of equality columns. */
    private record KeySet(StructProjection projection, StructLikeMap<Long> highest) {}
}
