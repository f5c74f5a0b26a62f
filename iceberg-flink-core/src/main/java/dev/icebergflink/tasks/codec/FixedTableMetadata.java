package dev.icebergflink.tasks.codec;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/** {@link TableMetadataLookup} over a fixed set of schemas and specs (no reloading). */
final class FixedTableMetadata implements TableMetadataLookup {

    private static final long serialVersionUID = 1L;

    private final Map<Integer, Schema> schemas;
    private final Map<Integer, PartitionSpec> specs;

    FixedTableMetadata(Map<Integer, Schema> schemas, Map<Integer, PartitionSpec> specs) {
        this.schemas = new HashMap<>(schemas);
        this.specs = new HashMap<>(specs);
    }

    @Override
    public Schema schema(int schemaId) {
        Schema schema = schemas.get(schemaId);
        if (schema == null) {
            throw new IllegalStateException(
                    "No schema with id " + schemaId + "; known ids: " + schemas.keySet());
        }
        return schema;
    }

    @Override
    public Map<Integer, PartitionSpec> specsIncluding(int specId) {
        if (!specs.containsKey(specId)) {
            throw new IllegalStateException(
                    "No partition spec with id " + specId + "; known ids: " + specs.keySet());
        }
        return specs;
    }
}
