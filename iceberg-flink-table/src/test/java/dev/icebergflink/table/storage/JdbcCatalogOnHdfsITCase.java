package dev.icebergflink.table.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.table.catalog.FlinkCatalog;
import dev.icebergflink.testing.servers.HdfsServerExtension;
import dev.icebergflink.testing.servers.PostgresServerExtension;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.types.Row;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Iceberg's JdbcCatalog on a real PostgreSQL with its warehouse on HDFS. */
class JdbcCatalogOnHdfsITCase extends CatalogWarehouseITCaseBase {

    @RegisterExtension static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @Override
    protected Map<String, String> catalogOptions() {
        Map<String, String> options = POSTGRES.catalogProperties();
        options.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
        options.put("warehouse", storage().warehouse());
        // the schema version with views (Iceberg's JdbcCatalog stores views only from V1 on)
        options.put("jdbc.schema-version", "V1");
        return options;
    }

    /** Flink views are Iceberg views in the JDBC catalog: created, queried, listed and dropped. */
    @Test
    void viewsAreStoredInTheJdbcCatalog() throws Exception {
        TableEnvironment env = batchEnv();
        createCatalog(env, "jdbc_views");
        exec(env, "CREATE DATABASE jdbc_views.v_db");
        exec(env, "CREATE TABLE jdbc_views.v_db.t (id BIGINT, data STRING)");
        exec(env, "INSERT INTO jdbc_views.v_db.t VALUES (1, 'a'), (2, 'b')");
        exec(
                env,
                "CREATE VIEW jdbc_views.v_db.v AS SELECT data FROM jdbc_views.v_db.t WHERE id = 2");

        FlinkCatalog catalog = (FlinkCatalog) env.getCatalog("jdbc_views").orElseThrow();
        ViewCatalog iceberg = (ViewCatalog) catalog.catalogLoader().loadCatalog();
        TableIdentifier view = catalog.toIdentifier(new ObjectPath("v_db", "v"));
        assertThat(iceberg.viewExists(view)).isTrue();
        assertThat(iceberg.loadView(view).sqlFor("flink").sql()).contains("`t`");
        // (SHOW VIEWS IN ... is not Flink 1.20 syntax; the catalog call is what it runs)
        assertThat(catalog.listViews("v_db")).containsExactly("v");
        assertThat(rows(env, "SELECT * FROM jdbc_views.v_db.v")).containsExactly(Row.of("b"));

        exec(env, "DROP VIEW jdbc_views.v_db.v");
        assertThat(iceberg.viewExists(view)).isFalse();
        exec(env, "DROP DATABASE jdbc_views.v_db CASCADE");
    }

    /**
     * Row-level DELETE and UPDATE commit through the JDBC catalog with files on HDFS (format v3:
     * deletion vectors, one per data file after two statements on the same file).
     */
    @Test
    void deleteAndUpdateCommitThroughTheJdbcCatalog() throws Exception {
        TableEnvironment env = batchEnv();
        createCatalog(env, "jdbc_dml");
        exec(env, "CREATE DATABASE jdbc_dml.dml_db");
        exec(
                env,
                "CREATE TABLE jdbc_dml.dml_db.t (id BIGINT, data STRING) WITH"
                        + " ('format-version'='3')");
        exec(env, "INSERT INTO jdbc_dml.dml_db.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        exec(env, "DELETE FROM jdbc_dml.dml_db.t WHERE id = 2");
        exec(env, "UPDATE jdbc_dml.dml_db.t SET data = 'z' WHERE id = 3");
        assertThat(rows(env, "SELECT * FROM jdbc_dml.dml_db.t"))
                .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(3L, "z"));

        FlinkCatalog catalog = (FlinkCatalog) env.getCatalog("jdbc_dml").orElseThrow();
        Table table =
                catalog.catalogLoader()
                        .loadCatalog()
                        .loadTable(catalog.toIdentifier(new ObjectPath("dml_db", "t")));
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                assertThat(task.deletes()).hasSizeLessThanOrEqualTo(1);
                assertThat(task.deletes())
                        .allSatisfy(d -> assertThat(d.format()).isEqualTo(FileFormat.PUFFIN));
            }
        }
        exec(env, "DROP DATABASE jdbc_dml.dml_db CASCADE");
    }

    @Override
    protected WarehouseStorage storage() {
        return new HdfsWarehouse(HDFS);
    }

    /** Creates a catalog of this class's JDBC catalog options (files on HDFS, one replica). */
    private void createCatalog(TableEnvironment env, String name) {
        Map<String, String> options = new LinkedHashMap<>(catalogOptions());
        options.put("type", "iceberg");
        options.put("hadoop.dfs.replication", "1");
        exec(
                env,
                "CREATE CATALOG " + name + " WITH (%s)",
                options.entrySet().stream()
                        .map(e -> "'" + e.getKey() + "'='" + e.getValue() + "'")
                        .collect(Collectors.joining(", ")));
    }
}
