package dev.icebergflink.table.catalog;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The DDL suite against Iceberg's Hadoop catalog in a temporary directory. */
class HadoopCatalogDdlITCase extends FlinkCatalogDdlSuiteBase {

    @TempDir static Path warehouse;

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("catalog-type", "hadoop", "warehouse", warehouse.toUri().toString());
    }

    @Override
    protected boolean supportsNamespaceProperties() {
        return false;
    }

    @Override
    protected boolean supportsRenameTable() {
        return false;
    }
}
