package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.testing.servers.HdfsServerExtension;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * What the ITCases on a real session cluster share, so that each of them says only what differs:
 * which servers it starts and in what order, how its {@link FlinkSessionCluster} is deployed, which
 * blocks of {@code docs/deployment.md} it runs and what it checks beyond the common walkthrough.
 *
 * <p>Why it exists: the SQL client tests ran the same guide walkthrough against different catalogs
 * and each repeated the timeout, the success check, the walkthrough's expected output and table,
 * and the test JVM's catalog on HDFS. The servers and the cluster stay static
 * {@code @RegisterExtension} fields of each test class (ordered with {@code @Order}), because their
 * order and configuration is exactly what differs from test to test. The guide's block names stay
 * in the test classes: {@link DeploymentGuideTest} checks that every tested block is named by an
 * ITCase.
 */
abstract class SessionClusterTestBase {

    /** How long one SQL client script may run on the cluster. */
    protected static final Duration SQL_TIMEOUT = Duration.ofMinutes(8);

    /** The guide's placeholder for the HDFS NameNode, replaced by the test's HDFS. */
    protected static final String GUIDE_NAMENODE = "hdfs://namenode:8020";

    /** The tested deployment guide, {@code docs/deployment.md}. */
    protected static final DeploymentGuide GUIDE = DeploymentGuide.load();

    /** What the guide's walkthrough prints: its rows, then the snapshot of its one INSERT. */
    protected static final List<List<String>> WALKTHROUGH_OUTPUT =
            List.of(
                    List.of("id", "category", "amount"),
                    List.of("1", "books", "10.50"),
                    List.of("2", "games", "20.00"),
                    List.of("3", "books", "7.25"),
                    List.of("operation", "added_records"),
                    List.of("append", "3"));

    /** The rows the walkthrough writes: id, category, amount. */
    protected static final List<List<Object>> WALKTHROUGH_ROWS =
            List.of(
                    List.of(1L, "books", new BigDecimal("10.50")),
                    List.of(2L, "games", new BigDecimal("20.00")),
                    List.of(3L, "books", new BigDecimal("7.25")));

    /** Runs a script with the SQL client and checks that every statement succeeded. */
    protected static ChildJvm.Result runSql(SqlClientRunner client, String script)
            throws Exception {
        ChildJvm.Result result = client.run(script, SQL_TIMEOUT);
        assertSucceeded(result);
        return result;
    }

    /** The SQL client exits 0 even after a failed statement, so look for its error marker too. */
    protected static void assertSucceeded(ChildJvm.Result result) {
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).as(result.output()).doesNotContain("[ERROR]");
    }

    /**
     * The walkthrough's table as the test JVM reads it: partitioned by category, holding exactly
     * the walkthrough's rows.
     */
    protected static void assertWalkthroughTable(Table events) throws IOException {
        assertThat(events.spec().fields())
                .singleElement()
                .satisfies(f -> assertThat(f.name()).isEqualTo("category"));
        assertThat(TableContents.rows(events, "id", "category", "amount"))
                .containsExactlyElementsOf(WALKTHROUGH_ROWS);
    }

    /** The test JVM's own Hadoop catalog on the test's HDFS. */
    protected static HadoopCatalog hadoopCatalog(HdfsServerExtension hdfs, String warehouse) {
        HadoopCatalog catalog = new HadoopCatalog();
        catalog.setConf(hdfs.configuration());
        catalog.initialize("check", Map.of("warehouse", warehouse));
        return catalog;
    }
}
