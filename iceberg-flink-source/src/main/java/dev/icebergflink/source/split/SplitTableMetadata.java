package dev.icebergflink.source.split;

import java.io.Serializable;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * Where a split serializer finds the table's schemas and partition specs.
 *
 * <p>It exists so that serialized splits refer to schemas and specs by id instead of repeating them
 * (embedding them in every split made checkpoints large): the serializer writes ids, and on
 * deserialization looks the objects up here. Implementations must find ids created after the job
 * started (a spec added by a concurrent {@code ALTER TABLE}), typically by reloading the table when
 * an id is missing.
 */
@Internal
public interface SplitTableMetadata extends Serializable {

    /**
     * The schema with this id.
     *
     * @throws IllegalStateException if the table has no such schema
     */
    Schema schema(int schemaId);

    /**
     * Every partition spec of the table by id, including {@code specId}.
     *
     * @throws IllegalStateException if the table has no spec with id {@code specId}
     */
    Map<Integer, PartitionSpec> specsIncluding(int specId);

    /** The metadata of a loaded table, fixed at the time of the call; for tests and tools. */
    static SplitTableMetadata of(Table table) {
        return new FixedTableMetadata(table.schemas(), table.specs());
    }
}
