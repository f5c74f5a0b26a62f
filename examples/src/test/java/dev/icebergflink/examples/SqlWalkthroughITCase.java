package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class SqlWalkthroughITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    @TempDir Path warehouse;

    @Test
    void runsTheDocumentedStatementsAndPrintsTheirResults() throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();
        String[] args =
                ExampleTesting.args(ExampleTesting.catalogArgs(warehouse), "--parallelism", "2");

        List<SqlWalkthrough.Executed> executed = SqlWalkthrough.run(args, output.stream);

        assertThat(rowsOf(executed, "SHOW TABLES"))
                .containsExactlyInAnyOrder(Row.of("sample"), Row.of("sample_like"));
        // INSERT OVERWRITE replaced partition 'a', then the static partition 'b'.
        assertThat(rowsOf(executed, "SELECT * FROM sample"))
                .containsExactlyInAnyOrder(Row.of(4L, "a"), Row.of(6L, "b"), Row.of(3L, "c"));
        // The atomic CTAS, then the replace: the new schema and rows, the CTAS snapshot kept.
        assertThat(rowsOf(executed, "SELECT * FROM sample_copy"))
                .containsExactlyInAnyOrder(
                        Row.of(4L, "a", 8L), Row.of(6L, "b", 12L), Row.of(3L, "c", 6L));
        assertThat(rowsOf(executed, "SELECT count(*) AS copy_snapshots"))
                .containsExactly(Row.of(2L));
        // The rows of both partition specs, then none after TRUNCATE.
        assertThat(rowsOf(executed, "SELECT id, category FROM events"))
                .containsExactlyInAnyOrder(Row.of(2L, "b"), Row.of(3L, "a"));
        assertThat(rowsOf(executed, "SELECT count(*) AS remaining")).containsExactly(Row.of(0L));
        assertThat(rowsOf(executed, "SELECT * FROM upsert_sample"))
                .containsExactlyInAnyOrder(Row.of(1, "aa"), Row.of(2, "bb"));
        assertThat(rowsOf(executed, "SELECT operation"))
                .containsExactly(
                        Row.of("append", "1"),
                        Row.of("append", "2"),
                        Row.of("overwrite", "1"),
                        Row.of("overwrite", "1"));
        assertThat(rowsOf(executed, "SELECT `partition`"))
                .extracting(row -> ((Row) row.getField(0)).getField(0) + "=" + row.getField(1))
                .containsExactlyInAnyOrder("a=1", "b=1", "c=1");
        // DELETE removed the cancelled order, UPDATE changed order 2: one snapshot each.
        assertThat(rowsOf(executed, "SELECT * FROM orders"))
                .containsExactlyInAnyOrder(Row.of(1L, "open", 10), Row.of(2L, "shipped", 21));
        assertThat(rowsOf(executed, "SELECT operation AS orders_operation"))
                .containsExactly(Row.of("append"), Row.of("delete"), Row.of("overwrite"));
        // The streaming read: the current table, then cancelled after the 3 rows.
        assertThat(rowsOf(executed, "SELECT * FROM sample /*+ OPTIONS('streaming'='true'"))
                .extracting(row -> row.getField(0))
                .containsExactlyInAnyOrder(4L, 6L, 3L);

        assertThat(output.text())
                .contains("Flink SQL> CREATE CATALOG hadoop_catalog WITH (")
                .contains("'warehouse'='" + warehouse.toUri())
                .contains("Flink SQL> INSERT OVERWRITE sample VALUES (4, 'a');")
                .contains("| id | data |")
                .contains("|  6 | b    |")
                .contains("[INFO] Session property has been set.")
                .contains("Flink SQL> DROP DATABASE hadoop_catalog.iceberg_db;");

        // The clean-up at the end lets the walkthrough run again on the same warehouse.
        assertThat(SqlWalkthrough.run(args, new ExampleTesting.Output().stream))
                .hasSameSizeAs(executed);
    }

    private static List<Row> rowsOf(List<SqlWalkthrough.Executed> executed, String prefix) {
        return executed.stream()
                .filter(e -> e.statement().startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no statement starts with " + prefix))
                .rows();
    }
}
