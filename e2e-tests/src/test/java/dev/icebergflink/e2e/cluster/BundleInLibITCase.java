package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import dev.icebergflink.testing.servers.HdfsServerExtension;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle jar in the cluster's {@code lib/}: the {@code examples} jar submitted with {@code
 * flink run} streams events into a table on HDFS with checkpoints, then reads it back in batch.
 *
 * <p>The catalog is a Hadoop catalog on HDFS: the bundle leaves Hive out on purpose (users bring
 * the Hive client jars of their metastore), and the Hive Metastore catalog is covered in the table
 * module's ITCases; here the point is the bundle, the cluster and HDFS.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BundleInLibITCase extends SessionClusterTestBase {

    private static final int EVENTS = 2_000;
    private static final String[] CATEGORIES = {"books", "games", "music", "tools"};

    @RegisterExtension
    @Order(1)
    static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @RegisterExtension
    @Order(2)
    static final FlinkSessionCluster CLUSTER =
            FlinkSessionCluster.withBundle(BundlePlacement.LIB).hadoopConfDir(HDFS::hadoopConfDir);

    @TempDir static Path output;

    @Test
    @Order(1)
    void streamingIngestionCommitsEveryEventOnceOverSeveralCheckpoints() throws Exception {
        ChildJvm.Result result =
                new FlinkCli(CLUSTER)
                        .run(
                                Duration.ofMinutes(5),
                                "dev.icebergflink.examples.StreamingIngestion",
                                E2eArtifacts.examplesJar(),
                                List.of(
                                        "--catalog-type", "hadoop",
                                        "--warehouse", warehouse(),
                                        "--table", "e2e.events",
                                        "--events", Integer.toString(EVENTS),
                                        "--events-per-second", "400",
                                        "--checkpoint-interval", "1s",
                                        "--parallelism", "2"));
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("Job has been submitted with JobID");

        Table table = catalog().loadTable(TableIdentifier.of("e2e", "events"));
        Map<Long, Record> rows = new HashMap<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                Record previous = rows.put((Long) record.getField("id"), record.copy());
                assertThat(previous).as("id %s written twice", record.getField("id")).isNull();
            }
        }
        assertThat(rows.keySet())
                .containsExactlyInAnyOrderElementsOf(LongStream.range(0, EVENTS).boxed().toList());
        rows.forEach(
                (id, record) -> {
                    assertThat(record.getField("category"))
                            .isEqualTo(CATEGORIES[(int) (id % CATEGORIES.length)]);
                    assertThat(record.getField("amount"))
                            .isEqualTo(BigDecimal.valueOf(id % 1000 + 1, 2));
                });
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        assertThat(snapshots).as("one snapshot per checkpoint").hasSizeGreaterThan(1);
        assertThat(snapshots)
                .allSatisfy(
                        s ->
                                assertThat(s.summary())
                                        .containsKey("flink.max-committed-checkpoint-id"));
        assertThat(table.location()).startsWith(HDFS.uri());
    }

    @Test
    @Order(2)
    void batchReadWritesTheSummaryPerCategory() throws Exception {
        Path summary = output.resolve("summary.csv");
        ChildJvm.Result result =
                new FlinkCli(CLUSTER)
                        .run(
                                Duration.ofMinutes(4),
                                "dev.icebergflink.examples.BatchRead",
                                E2eArtifacts.examplesJar(),
                                List.of(
                                        "--catalog-type",
                                        "hadoop",
                                        "--warehouse",
                                        warehouse(),
                                        "--table",
                                        "e2e.events",
                                        "--output",
                                        summary.toString()));
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(Files.readAllLines(summary, StandardCharsets.UTF_8))
                .containsExactly("books,500", "games,500", "music,500", "tools,500");
    }

    private static String warehouse() {
        return HDFS.uri("/warehouse");
    }

    private static HadoopCatalog catalog() {
        return hadoopCatalog(HDFS, warehouse());
    }
}
