package dev.icebergflink.table.catalog;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The DDL suite against a real Iceberg REST catalog server on 127.0.0.1 (JDBC/sqlite backend). */
class RestCatalogDdlITCase extends FlinkCatalogDdlSuiteBase {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("catalog-type", "rest", "uri", REST.uri());
    }
}
