package dev.icebergflink.table;

import static dev.icebergflink.table.testing.SinkTestSupport.icebergRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose columns {@code Name} and {@code name} differ only by case: Flink SQL resolves
 * column names exactly, so reads (projections, filters pushed down on either column, the
 * connector's default case-insensitive read option) and writes (all columns or a column list) must
 * reach exactly the column SQL named, never the other one.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CaseDifferingColumnsITCase extends SqlTestBase {

    @TempDir Path warehouse;

    private TableEnvironment env;

    @BeforeEach
    void createTable() {
        env = batchEnv();
        exec(
                env,
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG lake");
        exec(env, "CREATE TABLE t (id INT, Name STRING, name STRING)");
        exec(env, "INSERT INTO t VALUES (1, 'Upper1', 'lower1'), (2, 'Upper2', 'lower2')");
    }

    @Test
    void writesGoToTheColumnSqlNamed() {
        exec(env, "INSERT INTO t (id, name) VALUES (3, 'lower3')");
        exec(env, "INSERT INTO t (id, Name) VALUES (4, 'Upper4')");

        assertThat(icebergRows(table()))
                .containsExactlyInAnyOrder(
                        Row.of(1, "Upper1", "lower1"),
                        Row.of(2, "Upper2", "lower2"),
                        Row.of(3, null, "lower3"),
                        Row.of(4, "Upper4", null));
    }

    @Test
    void projectionsReadTheColumnSqlNamed() {
        assertThat(rows(env, "SELECT Name, name FROM t"))
                .containsExactlyInAnyOrder(Row.of("Upper1", "lower1"), Row.of("Upper2", "lower2"));
        assertThat(rows(env, "SELECT name, id FROM t"))
                .containsExactlyInAnyOrder(Row.of("lower1", 1), Row.of("lower2", 2));
        assertThat(rows(env, "SELECT Name FROM t"))
                .containsExactlyInAnyOrder(Row.of("Upper1"), Row.of("Upper2"));
        assertThat(rows(env, "SELECT * FROM t"))
                .containsExactlyInAnyOrder(
                        Row.of(1, "Upper1", "lower1"), Row.of(2, "Upper2", "lower2"));
    }

    @Test
    void filtersPushedDownOnEitherColumnUseThatColumn() {
        assertThat(env.explainSql("SELECT id, name FROM t WHERE Name = 'Upper2'"))
                .as("the filter on Name is pushed into the source")
                .contains("filter=[=(Name, ");
        assertThat(env.explainSql("SELECT id, Name FROM t WHERE name = 'lower1'"))
                .as("the filter on name is pushed into the source")
                .contains("filter=[=(name, ");
        assertThat(rows(env, "SELECT id, name FROM t WHERE Name = 'Upper2'"))
                .containsExactly(Row.of(2, "lower2"));
        assertThat(rows(env, "SELECT id, Name FROM t WHERE name = 'lower1'"))
                .containsExactly(Row.of(1, "Upper1"));
        assertThat(rows(env, "SELECT id FROM t WHERE name = 'Upper1'")).isEmpty();
        assertThat(rows(env, "SELECT id FROM t WHERE Name IS NOT NULL AND name LIKE 'lower%%'"))
                .containsExactlyInAnyOrder(Row.of(1), Row.of(2));
    }

    @Test
    void theCaseSensitiveReadOptionDoesNotChangeWhichColumnIsRead() {
        assertThat(
                        rows(
                                env,
                                "SELECT Name, name FROM t /*+ OPTIONS('case-sensitive'='true') */"
                                        + " WHERE name = 'lower2'"))
                .containsExactly(Row.of("Upper2", "lower2"));
        assertThat(
                        rows(
                                env,
                                "SELECT Name, name FROM t /*+ OPTIONS('case-sensitive'='false') */"
                                        + " WHERE Name = 'Upper1'"))
                .containsExactly(Row.of("Upper1", "lower1"));
    }

    private Table table() {
        return CatalogLoader.hadoop(
                        "verify",
                        new Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()))
                .loadCatalog()
                .loadTable(TableIdentifier.of("default", "t"));
    }
}
