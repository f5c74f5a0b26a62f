package dev.icebergflink.tasks.codec;

import dev.icebergflink.TableLoader;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * {@link TableMetadataLookup} that loads the table through a {@link TableLoader} on first use and
 * loads it again when asked for a schema or spec id it does not know yet (one created after the job
 * started). Thread-safe.
 *
 * <p>The loader is closed again after each load: only schemas and specs are kept, so the catalog is
 * not held open between loads.
 */
@Internal
public final class LoadingTableMetadata implements TableMetadataLookup {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private transient volatile FixedTableMetadata current;

    public LoadingTableMetadata(TableLoader loader) {
        this.loader = loader.clone();
    }

    @Override
    public Schema schema(int schemaId) {
        FixedTableMetadata metadata = metadata(false);
        try {
            return metadata.schema(schemaId);
        } catch (IllegalStateException missing) {
            return metadata(true).schema(schemaId);
        }
    }

    @Override
    public Map<Integer, PartitionSpec> specsIncluding(int specId) {
        FixedTableMetadata metadata = metadata(false);
        try {
            return metadata.specsIncluding(specId);
        } catch (IllegalStateException missing) {
            return metadata(true).specsIncluding(specId);
        }
    }

    private synchronized FixedTableMetadata metadata(boolean reload) {
        if (current == null || reload) {
            try {
                Table table = loader.loadTable();
                current = new FixedTableMetadata(table.schemas(), table.specs());
            } finally {
                // Only schemas and specs are kept: release the catalog right away.
                closeQuietly();
            }
        }
        return current;
    }

    private void closeQuietly() {
        try {
            loader.close();
        } catch (java.io.IOException | RuntimeException e) {
            // Nothing was written; a failure to release the catalog does not affect the result.
        }
    }
}
