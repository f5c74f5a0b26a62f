package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.util.Map;
import org.apache.flink.types.Row;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The DDL suite against a real Iceberg REST catalog server on 127.0.0.1 (JDBC/sqlite backend). */
class RestCatalogDdlITCase extends FlinkCatalogDdlSuiteBase {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("catalog-type", "rest", "uri", REST.uri());
    }

    @Test
    void databasesLiveUnderTheBaseNamespace() throws Exception {
        sql(
                "CREATE CATALOG nested WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='%s',"
                        + " 'base-namespace'='lake.prod', 'default-database'='sales')",
                REST.uri());
        try {
            sql("USE CATALOG nested");
            assertThat(rows("SHOW CURRENT DATABASE")).containsExactly(Row.of("sales"));
            sql("CREATE TABLE orders (id BIGINT)");
            sql("CREATE DATABASE refunds");

            SupportsNamespaces backend = (SupportsNamespaces) REST.backend();
            assertThat(backend.namespaceExists(Namespace.of("lake", "prod", "sales"))).isTrue();
            assertThat(backend.namespaceExists(Namespace.of("lake", "prod", "refunds"))).isTrue();
            assertThat(
                            REST.backend()
                                    .tableExists(
                                            TableIdentifier.of("lake", "prod", "sales", "orders")))
                    .isTrue();
            assertThat(rows("SHOW DATABASES"))
                    .containsExactlyInAnyOrder(Row.of("sales"), Row.of("refunds"));
        } finally {
            sql("USE CATALOG %s", CATALOG);
            sql("DROP DATABASE nested.sales CASCADE");
            sql("DROP DATABASE nested.refunds");
            sql("DROP CATALOG nested");
        }
    }
}
