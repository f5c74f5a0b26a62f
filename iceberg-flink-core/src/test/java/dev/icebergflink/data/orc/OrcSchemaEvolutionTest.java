package dev.icebergflink.data.orc;

import dev.icebergflink.data.FormatProjectionSuite;
import org.apache.iceberg.FileFormat;

/**
 * The shared projection and schema evolution suite, for ORC files. Iceberg's ORC reader cannot read
 * initial defaults of added columns.
 */
class OrcSchemaEvolutionTest extends FormatProjectionSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.ORC;
    }

    @Override
    protected boolean readsInitialDefaults() {
        return false;
    }
}
