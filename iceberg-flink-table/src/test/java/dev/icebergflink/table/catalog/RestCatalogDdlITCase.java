package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.util.ArrayList;
import java.util.List;
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

    /** Row-level DELETE and UPDATE commit through the REST catalog (v2: position deletes). */
    @Test
    void deleteAndUpdateCommitThroughTheRestCatalog() throws Exception {
        tEnv.executeSql(
                        "CREATE TABLE dml (id INT, category STRING, v INT) PARTITIONED BY"
                                + " (category) WITH ('format-version'='2')")
                .await();
        tEnv.executeSql("INSERT INTO dml VALUES (1, 'a', 10), (2, 'b', 20), (3, 'a', 30)").await();
        tEnv.executeSql("DELETE FROM dml WHERE id = 2").await();
        tEnv.executeSql("UPDATE dml SET v = v + 1 WHERE category = 'a'").await();
        assertThat(rows("SELECT * FROM dml"))
                .containsExactlyInAnyOrder(Row.of(1, "a", 11), Row.of(3, "a", 31));
        List<String> operations = new ArrayList<>();
        icebergTable("dml").snapshots().forEach(s -> operations.add(s.operation()));
        assertThat(operations).containsExactly("append", "delete", "overwrite");
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
