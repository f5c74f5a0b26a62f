package dev.icebergflink.tasks.codec;

import java.io.Serializable;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * Where the serializers of file tasks and content files find the table's schemas and partition
 * specs by id.
 *
 * <p>It exists so that serialized tasks and files refer to schemas and specs by id instead of
 * repeating them (embedding them in every split or write result made state large): the serializer
 * writes ids, and on deserialization looks the objects up here. Implementations must find ids
 * created after the job started (a spec added by a concurrent {@code ALTER TABLE}), typically by
 * reloading the table when an id is missing ({@link LoadingTableMetadata}).
 */
@Internal
public interface TableMetadataLookup extends Serializable {

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

    /**
     * The partition spec with this id.
     *
     * @throws IllegalStateException if the table has no such spec
     */
    default PartitionSpec spec(int specId) {
        return specsIncluding(specId).get(specId);
    }

    /** The metadata of a loaded table, fixed at the time of the call; for tests and tools. */
    static TableMetadataLookup of(Table table) {
        return new FixedTableMetadata(table.schemas(), table.specs());
    }

    /** Fixed schemas and specs by id (no reloading). */
    static TableMetadataLookup of(Map<Integer, Schema> schemas, Map<Integer, PartitionSpec> specs) {
        return new FixedTableMetadata(schemas, specs);
    }

    /** Fixed specs by id and no schemas, for serializers of content files only. */
    static TableMetadataLookup ofSpecs(Map<Integer, PartitionSpec> specs) {
        return new FixedTableMetadata(Map.of(), specs);
    }
}
