package dev.icebergflink.testing.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class PostgresServerExtensionTest {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @TempDir static Path warehouse;

    @Test
    void jdbcCatalogOnPostgresCreatesATable() throws Exception {
        assertThat(POSTGRES.jdbcUrl()).startsWith("jdbc:postgresql://127.0.0.1:");
        Map<String, String> properties = POSTGRES.catalogProperties();
        properties.put("warehouse", warehouse.toUri().toString());
        TableIdentifier id = TableIdentifier.of("db", "t");
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "name", Types.StringType.get()));

        JdbcCatalog catalog =
                (JdbcCatalog)
                        CatalogUtil.buildIcebergCatalog(
                                "pg", withImpl(properties), new Configuration());
        try {
            ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
            Table table = catalog.createTable(id, schema);
            assertThat(table.location())
                    .startsWith(warehouse.toUri().toString().replaceAll("/$", ""));
        } finally {
            catalog.close();
        }

        // The table is a row in the fixture's own database, and a new catalog sees it.
        assertThat(catalogRows()).containsExactly("pg.db.t");
        JdbcCatalog again =
                (JdbcCatalog)
                        CatalogUtil.buildIcebergCatalog(
                                "pg", withImpl(properties), new Configuration());
        try {
            assertThat(again.loadTable(id).schema().asStruct()).isEqualTo(schema.asStruct());
        } finally {
            again.close();
        }
    }

    private static Map<String, String> withImpl(Map<String, String> properties) {
        properties.put("catalog-impl", JdbcCatalog.class.getName());
        return properties;
    }

    private static List<String> catalogRows() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = POSTGRES.connect();
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT catalog_name, table_namespace, table_name FROM iceberg_tables")) {
            while (result.next()) {
                rows.add(
                        result.getString(1)
                                + "."
                                + result.getString(2)
                                + "."
                                + result.getString(3));
            }
        }
        return rows;
    }
}
