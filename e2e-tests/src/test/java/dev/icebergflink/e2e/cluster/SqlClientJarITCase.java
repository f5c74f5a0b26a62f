package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import dev.icebergflink.testing.servers.HdfsServerExtension;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flink's SQL client against the cluster with the bundle NOT in {@code lib/}: through {@code -j}
 * (Hadoop catalog on HDFS and REST catalog, batch and streaming) and through {@code ADD JAR}. This
 * is where Iceberg's own runtime jar fails with {@code ClassNotFoundException} on its catalog
 * classes. Every script comes from {@code docs/deployment.md}.
 */
class SqlClientJarITCase extends SessionClusterTestBase {

    private static final String REST_URI = "http://rest-catalog:8181";
    private static final String BUNDLE = "/opt/iceberg/iceberg-flink-bundle.jar";
    private static final Pattern JOB_ID = Pattern.compile("Job ID: ([0-9a-f]{32})");

    @RegisterExtension
    @Order(1)
    static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @RegisterExtension
    @Order(2)
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @RegisterExtension
    @Order(3)
    static final FlinkSessionCluster CLUSTER =
            FlinkSessionCluster.withBundle(BundlePlacement.USER_JAR)
                    .hadoopConfDir(HDFS::hadoopConfDir)
                    .config(
                            () ->
                                    GUIDE.flatYaml(
                                            "config.yaml", Map.of(GUIDE_NAMENODE, HDFS.uri())));

    /**
     * The cluster is the Flink line this build targets (assembled from that version's Maven
     * artifacts): run with {@code -Pflink-2.1}, the same tests prove the bundle on a real 2.1
     * cluster.
     */
    @Test
    void theClusterRunsTheFlinkVersionOfThisBuild() throws Exception {
        String expected = System.getProperty("e2e.flink.version");
        assertThat(expected).as("system property e2e.flink.version").isNotBlank();
        assertThat(CLUSTER.restGet("/config")).contains("\"flink-version\":\"" + expected + "\"");
    }

    @Test
    void dashJWithHadoopCatalogOnHdfsAndRestCatalog() throws Exception {
        String init =
                GUIDE.block("init-hadoop.sql", Map.of(GUIDE_NAMENODE, HDFS.uri()))
                        + GUIDE.block("init-rest.sql", Map.of(REST_URI, REST.uri()));
        String script = GUIDE.block("walkthrough.sql") + GUIDE.block("rest-walkthrough.sql");

        ChildJvm.Result result =
                runSql(
                        new SqlClientRunner(CLUSTER).initScript(init).jar(E2eArtifacts.bundleJar()),
                        script);

        List<List<String>> restOutput =
                List.of(
                        List.of("user_id", "url", "visit_date"),
                        List.of("7", "https://example.com/a", "2026-01-01"),
                        List.of("8", "https://example.com/b", "2026-01-02"));
        assertThat(TableauOutput.rows(result.output()))
                .as(result.output())
                .containsSubsequence(
                        Stream.concat(WALKTHROUGH_OUTPUT.stream(), restOutput.stream()).toList());

        Table events = hadoopCatalog(HDFS, HDFS.uri() + "/warehouse").loadTable(id("db", "events"));
        assertThat(events.location()).startsWith(HDFS.uri());
        assertWalkthroughTable(events);
        Table clicks = REST.backend().loadTable(id("web", "clicks"));
        assertThat(TableContents.rows(clicks, "user_id", "url", "visit_date"))
                .containsExactly(
                        List.of(7L, "https://example.com/a", LocalDate.of(2026, 1, 1)),
                        List.of(8L, "https://example.com/b", LocalDate.of(2026, 1, 2)));
    }

    @Test
    void addJarInTheScriptInsteadOfDashJ() throws Exception {
        String warehouseRoot = HDFS.uri() + "/add-jar";
        String script =
                GUIDE.block("add-jar.sql", Map.of(BUNDLE, E2eArtifacts.bundleJar().toString()))
                        + GUIDE.block("init-hadoop.sql", Map.of(GUIDE_NAMENODE, warehouseRoot))
                        + GUIDE.block("walkthrough.sql");

        ChildJvm.Result result = runSql(new SqlClientRunner(CLUSTER), script);

        assertThat(TableauOutput.rows(result.output()))
                .as(result.output())
                .contains(List.of(E2eArtifacts.bundleJar().toString()))
                .containsSubsequence(WALKTHROUGH_OUTPUT);
        Table events =
                hadoopCatalog(HDFS, warehouseRoot + "/warehouse").loadTable(id("db", "events"));
        assertThat(TableContents.rows(events, "id"))
                .containsExactly(List.of(1L), List.of(2L), List.of(3L));
    }

    @Test
    void streamingInsertCommitsOneSnapshotPerCheckpointUntilCancelled() throws Exception {
        String warehouseRoot = HDFS.uri() + "/streaming";
        String script =
                GUIDE.block("init-hadoop.sql", Map.of(GUIDE_NAMENODE, warehouseRoot))
                        // The guide recommends minutes; the test commits every second.
                        + "SET 'execution.checkpointing.interval' = '1s';\n"
                        + GUIDE.block("streaming-insert.sql");

        ChildJvm.Result result =
                runSql(new SqlClientRunner(CLUSTER).jar(E2eArtifacts.bundleJar()), script);
        Matcher jobId = JOB_ID.matcher(result.output());
        assertThat(jobId.find()).as(result.output()).isTrue();

        HadoopCatalog catalog = hadoopCatalog(HDFS, warehouseRoot + "/warehouse");
        Table table = catalog.loadTable(id("db", "stream_events"));
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (snapshotCount(table) < 3) {
            assertThat(Instant.now()).as("3 snapshots committed in time").isBefore(deadline);
            assertThat(CLUSTER.jobState(jobId.group(1)))
                    .as("the streaming INSERT must keep running")
                    .isNotIn("FAILED", "FAILING", "CANCELED", "FINISHED");
            Thread.sleep(500); // polling interval; the condition is the table's snapshot count
            table.refresh();
        }
        CLUSTER.cancelJob(jobId.group(1));
        while (!CLUSTER.jobState(jobId.group(1)).equals("CANCELED")) {
            assertThat(Instant.now()).as("job cancelled in time").isBefore(deadline);
            Thread.sleep(200);
        }

        table.refresh();
        List<List<Object>> rows = TableContents.rows(table, "id", "shard", "amount");
        long max = rows.size();
        assertThat(max).isPositive();
        assertThat(rows)
                .as("exactly the ids 1..%s, each once: the committed prefix of the sequence", max)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, max)
                                .mapToObj(
                                        i ->
                                                List.<Object>of(
                                                        i,
                                                        "shard-" + (i % 2),
                                                        BigDecimal.valueOf(i % 100 * 100, 2)))
                                .toList());
    }

    private static int snapshotCount(Table table) {
        int count = 0;
        for (var ignored : table.snapshots()) {
            count++;
        }
        return count;
    }

    private static TableIdentifier id(String database, String table) {
        return TableIdentifier.of(database, table);
    }
}
