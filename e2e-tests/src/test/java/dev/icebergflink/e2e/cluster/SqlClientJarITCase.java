package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The SQL client with the bundle through {@code -j} and {@code ADD JAR}, bundle NOT in lib/. */
class SqlClientJarITCase {

    @RegisterExtension
    static final FlinkSessionCluster CLUSTER =
            FlinkSessionCluster.withBundle(BundlePlacement.USER_JAR);

    @TempDir static Path warehouse;

    @Test
    void hadoopCatalogThroughDashJ() throws Exception {
        String init =
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='"
                        + warehouse.toUri()
                        + "');\n"
                        + "SET 'sql-client.execution.result-mode' = 'tableau';\n"
                        + "SET 'execution.runtime-mode' = 'batch';\n"
                        + "SET 'table.dml-sync' = 'true';\n";
        String script =
                "CREATE DATABASE lake.db;\n"
                        + "CREATE TABLE lake.db.events (id BIGINT, category STRING, amount DOUBLE)"
                        + " PARTITIONED BY (category);\n"
                        + "INSERT INTO lake.db.events VALUES (1, 'books', 10.5), (2, 'games', 20.0),"
                        + " (3, 'books', 7.25);\n"
                        + "SELECT id, category, amount FROM lake.db.events ORDER BY id;\n"
                        + "SELECT operation FROM lake.db.`events$snapshots`;\n";
        ChildJvm.Result result =
                new SqlClientRunner(CLUSTER)
                        .initScript(init)
                        .jar(E2eArtifacts.bundleJar())
                        .run(script, Duration.ofMinutes(4));
        assertThat(result.exitCode()).as(result.output()).isZero();
        List<List<String>> rows = TableauOutput.rows(result.output());
        assertThat(rows)
                .as(result.output())
                .containsSubsequence(
                        List.of("id", "category", "amount"),
                        List.of("1", "books", "10.5"),
                        List.of("2", "games", "20.0"),
                        List.of("3", "books", "7.25"),
                        List.of("operation"),
                        List.of("append"));
    }
}
