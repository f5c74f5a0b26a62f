package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import dev.icebergflink.table.testing.HiveMetastoreServerExtension;
import dev.icebergflink.testing.servers.HdfsServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
class HiveCatalogITCase extends SessionClusterTestBase {

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

    @Test
    void sqlClientWritesAndReadsAPartitionedTableThroughTheHiveMetastore() throws Exception {
        String init =
                GUIDE.block(
                        "init-hive.sql", Map.of(GUIDE_NAMENODE, HDFS.uri(), METASTORE, HMS.uri()));

        ChildJvm.Result result =
                runSql(
                        new SqlClientRunner(CLUSTER).initScript(init).jar(E2eArtifacts.bundleJar()),
                        GUIDE.block("walkthrough.sql"));

        assertThat(TableauOutput.rows(result.output()))
                .as(result.output())
                .containsSubsequence(WALKTHROUGH_OUTPUT);

        // The test JVM sees the same table through its own HiveCatalog on the same metastore.
        HiveCatalog catalog = new HiveCatalog();
        catalog.setConf(HDFS.configuration());
        catalog.initialize("check", Map.of("uri", HMS.uri(), "warehouse", HDFS.uri("/warehouse")));
        try {
            assertThat(catalog.listTables(org.apache.iceberg.catalog.Namespace.of("db")))
                    .containsExactly(TableIdentifier.of("db", "events"));
            Table events = catalog.loadTable(TableIdentifier.of("db", "events"));
            assertThat(events.location()).isEqualTo(HDFS.uri("/warehouse/db.db/events"));
            assertWalkthroughTable(events);
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
