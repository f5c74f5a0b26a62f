package dev.icebergflink.maintenance.eqdelete;

import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.StructLikeWrapper;

/**
 * The data files an equality delete file may apply to, as a value usable as a map key: one
 * partition of one spec, or every partition for a delete of an unpartitioned spec ({@link
 * #GLOBAL}).
 *
 * <p>It exists because Iceberg's scope rule (partitioned equality deletes apply only to data files
 * of the same spec and partition tuple; deletes of an unpartitioned spec apply to the whole table)
 * is needed by the planner (grouping) and by the commit's validation (which new data files a
 * removed delete would have applied to), and partition tuples need a wrapper to be compared.
 */
@Internal
public final class DeleteScope {

    /** The scope of equality deletes of an unpartitioned spec: the whole table. */
    public static final DeleteScope GLOBAL = new DeleteScope(-1, null);

    private final int specId;
    private final StructLikeWrapper partition;

    private DeleteScope(int specId, StructLikeWrapper partition) {
        this.specId = specId;
        this.partition = partition;
    }

    /** The partition of {@code file}: its spec and partition tuple. */
    public static DeleteScope partitionOf(ContentFile<?> file, Map<Integer, PartitionSpec> specs) {
        PartitionSpec spec = specs.get(file.specId());
        if (spec == null) {
            throw new IllegalStateException(
                    "Unknown partition spec " + file.specId() + " of " + file.location());
        }
        StructLikeWrapper tuple = StructLikeWrapper.forType(spec.partitionType());
        return new DeleteScope(file.specId(), tuple.set(file.partition()));
    }

    /** The scope of an equality delete file: its partition, or {@link #GLOBAL}. */
    public static DeleteScope of(ContentFile<?> deleteFile, Map<Integer, PartitionSpec> specs) {
        PartitionSpec spec = specs.get(deleteFile.specId());
        if (spec != null && spec.isUnpartitioned()) {
            return GLOBAL;
        }
        return partitionOf(deleteFile, specs);
    }

    /** Whether this is {@link #GLOBAL}. */
    public boolean isGlobal() {
        return this == GLOBAL;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof DeleteScope that) || isGlobal() || that.isGlobal()) {
            return false;
        }
        return specId == that.specId && partition.equals(that.partition);
    }

    @Override
    public int hashCode() {
        return isGlobal() ? 0 : 31 * specId + partition.hashCode();
    }

    @Override
    public String toString() {
        return isGlobal() ? "global" : "spec " + specId + " partition " + partition.get();
    }
}
