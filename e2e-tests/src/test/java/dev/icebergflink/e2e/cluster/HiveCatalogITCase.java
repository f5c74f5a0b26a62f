package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import dev.icebergflink.table.testing.HiveMetastoreServerExtension;
import dev.icebergflink.testing.servers.HdfsServerExtension;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flink's SQL client on the real session cluster against a Hive Metastore 2.3 (in the test JVM,
 * Thrift on 127.0.0.1) with the warehouse on HDFS. The bundle comes with {@code -j}; the Hive
 * Metastore client jars are in the cluster's {@code lib/} exactly as the guide's copy command puts
 * them there, and every script comes from {@code docs/deployment.md}.
 */
class HiveCatalogITCase {

    private static final Duration SQL_TIMEOUT = Duration.ofMinutes(4);
    private static final String NAMENODE = "hdfs://namenode:8020";
    private static final String METASTORE = "thrift://metastore:9083";

    @RegisterExtension
    @Order(1)
    static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @RegisterExtension
    @Order(2)
    static final HiveMetastoreServerExtension HMS = new HiveMetastoreServerExtension();

    @RegisterExtension
    @Order(3)
    static final FlinkSessionCluster CLUSTER =
            FlinkSessionCluster.withBundle(BundlePlacement.USER_JAR)
                    .hadoopConfDir(HDFS::hadoopConfDir)
                    .libJars(HiveCatalogITCase::guideHiveJars);

    private static final DeploymentGuide GUIDE = DeploymentGuide.load();

    @Test
    void sqlClientWritesAndReadsAPartitionedTableThroughTheHiveMetastore() throws Exception {
        String init =
                GUIDE.block("init-hive.sql", Map.of(NAMENODE, HDFS.uri(), METASTORE, HMS.uri()));

        ChildJvm.Result result =
                new SqlClientRunner(CLUSTER)
                        .initScript(init)
                        .jar(E2eArtifacts.bundleJar())
                        .run(GUIDE.block("walkthrough.sql"), SQL_TIMEOUT);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).as(result.output()).doesNotContain("[ERROR]");
        assertThat(TableauOutput.rows(result.output()))
                .as(result.output())
                .containsSubsequence(
                        List.of("id", "category", "amount"),
                        List.of("1", "books", "10.50"),
                        List.of("2", "games", "20.00"),
                        List.of("3", "books", "7.25"),
                        List.of("operation", "added_records"),
                        List.of("append", "3"));

        // The test JVM sees the same table through its own HiveCatalog on the same metastore.
        HiveCatalog catalog = new HiveCatalog();
        catalog.setConf(HDFS.configuration());
        catalog.initialize("check", Map.of("uri", HMS.uri(), "warehouse", HDFS.uri("/warehouse")));
        try {
            assertThat(catalog.listTables(org.apache.iceberg.catalog.Namespace.of("db")))
                    .containsExactly(TableIdentifier.of("db", "events"));
            Table events = catalog.loadTable(TableIdentifier.of("db", "events"));
            assertThat(events.location()).isEqualTo(HDFS.uri("/warehouse/db.db/events"));
            assertThat(events.spec().fields())
                    .singleElement()
                    .satisfies(f -> assertThat(f.name()).isEqualTo("category"));
            assertThat(TableContents.rows(events, "id", "category", "amount"))
                    .containsExactly(
                            List.of(1L, "books", new BigDecimal("10.50")),
                            List.of(2L, "games", new BigDecimal("20.00")),
                            List.of(3L, "books", new BigDecimal("7.25")));
            assertThat(events.snapshots()).hasSize(1);
        } finally {
            catalog.close();
        }
    }

    /**
     * The jars the guide's copy command puts into {@code lib/}, found among the Hive client jars
     * Maven fetched (flink/hive) under the guide's names; the guide must name all of them, and
     * nothing else.
     */
    private static List<Path> guideHiveJars() {
        Path dir = E2eArtifacts.flinkParts().resolve("hive");
        List<Path> jars = GUIDE.jarsNamedIn("hive-client-lib.sh", dir);
        try (Stream<Path> provided = Files.list(dir)) {
            assertThat(jars)
                    .as("the guide's Hive jars are the ones this build copies")
                    .containsExactlyInAnyOrderElementsOf(provided.toList());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return jars;
    }
}
