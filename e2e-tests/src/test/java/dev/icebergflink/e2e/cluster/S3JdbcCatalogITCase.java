package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import dev.icebergflink.testing.servers.PostgresServerExtension;
import dev.icebergflink.testing.servers.S3ProxyServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flink's SQL client on the real session cluster against a JDBC catalog on a real PostgreSQL with
 * its warehouse on an S3-compatible store (s3proxy) through Iceberg's {@code S3FileIO}, path-style
 * access. The bundle is NOT in {@code lib/}: it comes with {@code -j}, together with the extra jars
 * the guide tells users to add ({@code iceberg-aws}, {@code iceberg-aws-bundle}, the PostgreSQL
 * driver). The command's jars and every script come from {@code docs/deployment.md}.
 */
class S3JdbcCatalogITCase extends SessionClusterTestBase {

    private static final String BUCKET = "lakehouse";
    private static final String JARS_DIR = "/opt/iceberg";
    private static final String BUNDLE_NAME = "iceberg-flink-bundle.jar";
    private static final Pattern DASH_J = Pattern.compile("-j\\s+(\\S+)");

    @RegisterExtension
    @Order(1)
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @RegisterExtension
    @Order(2)
    static final S3ProxyServerExtension S3 = new S3ProxyServerExtension();

    @RegisterExtension
    @Order(3)
    static final FlinkSessionCluster CLUSTER =
            FlinkSessionCluster.withBundle(BundlePlacement.USER_JAR)
                    .libJars(S3JdbcCatalogITCase::guideLibJars);

    @Test
    void sqlClientWritesAndReadsAPartitionedTableOnS3ThroughTheJdbcCatalog() throws Exception {
        S3.createBucket(BUCKET);
        List<Path> jars = guideJars();
        String init = GUIDE.block("init-s3.sql", placeholders());

        SqlClientRunner client = new SqlClientRunner(CLUSTER).initScript(init);
        jars.forEach(client::jar);
        ChildJvm.Result result = runSql(client, GUIDE.block("walkthrough.sql"));

        assertThat(TableauOutput.rows(result.output()))
                .as(result.output())
                .containsSubsequence(WALKTHROUGH_OUTPUT);

        // The objects are really in the bucket: one data file per partition, and the metadata.
        Path tableDir = S3.basedir().resolve(BUCKET).resolve("warehouse/db/events");
        assertThat(files(tableDir.resolve("data/category=books"))).hasSize(1);
        assertThat(files(tableDir.resolve("data/category=games"))).hasSize(1);
        assertThat(files(tableDir.resolve("metadata")))
                .anySatisfy(f -> assertThat(f.toString()).endsWith(".metadata.json"))
                .anySatisfy(f -> assertThat(f.toString()).endsWith(".avro"));

        // The test JVM reads the same rows through its own JdbcCatalog + S3FileIO.
        try (JdbcCatalog catalog = jdbcCatalog()) {
            Table events = catalog.loadTable(TableIdentifier.of("db", "events"));
            assertThat(events.location()).isEqualTo("s3://" + BUCKET + "/warehouse/db/events");
            assertWalkthroughTable(events);
            try (CloseableIterable<FileScanTask> tasks = events.newScan().planFiles()) {
                for (FileScanTask task : tasks) {
                    DataFile file = task.file();
                    String key = file.location().substring(("s3://" + BUCKET + "/").length());
                    assertThat(S3.objectFile(BUCKET, key)).isRegularFile();
                }
            }
        }
    }

    /** The values of the guide's placeholders for this test's PostgreSQL and s3proxy. */
    private static Map<String, String> placeholders() {
        Map<String, String> values = new HashMap<>();
        values.put("jdbc:postgresql://db:5432/iceberg", POSTGRES.jdbcUrl());
        values.put("iceberg-db-user", POSTGRES.user());
        values.put("iceberg-db-password", POSTGRES.password());
        values.put("http://minio:9000", S3.endpoint());
        values.put("minio-access-key", S3.accessKey());
        values.put("minio-secret-key", S3.secretKey());
        return values;
    }

    /**
     * The {@code -j} jars of the guide's SQL client command, resolved in a directory laid out like
     * the guide's {@code /opt/iceberg}: the bundle of this build under the guide's name, and the
     * extra jars Maven fetched under theirs (so the guide's versions must match the build's).
     */
    private static List<Path> guideJars() throws IOException {
        Path dir = CLUSTER.distribution().home().resolve("opt-iceberg");
        Files.createDirectories(dir);
        Files.createSymbolicLink(dir.resolve(BUNDLE_NAME), E2eArtifacts.bundleJar());
        try (Stream<Path> extra = Files.list(E2eArtifacts.flinkParts().resolve("extra"))) {
            for (Path jar : extra.toList()) {
                Files.createSymbolicLink(dir.resolve(jar.getFileName()), jar);
            }
        }
        String command = GUIDE.block("sql-client-s3-jdbc.sh", Map.of(JARS_DIR, dir.toString()));
        List<Path> jars = new ArrayList<>();
        Matcher matcher = DASH_J.matcher(command);
        while (matcher.find()) {
            Path jar = Path.of(matcher.group(1));
            assertThat(jar)
                    .as("a jar the guide names must be one this build provides (%s)", command)
                    .exists();
            jars.add(jar);
        }
        assertThat(jars).hasSize(4);
        return jars;
    }

    /**
     * The jars the guide copies into {@code lib/} (the JDBC driver), found among the extra jars
     * Maven fetched under the guide's names.
     */
    private static List<Path> guideLibJars() {
        List<Path> jars =
                GUIDE.jarsNamedIn("jdbc-driver-lib.sh", E2eArtifacts.flinkParts().resolve("extra"));
        assertThat(jars).as("the guide puts the JDBC driver into lib/").hasSize(1);
        return jars;
    }

    private static JdbcCatalog jdbcCatalog() {
        Map<String, String> properties = new HashMap<>(POSTGRES.catalogProperties());
        properties.putAll(S3.icebergProperties(BUCKET));
        JdbcCatalog catalog = new JdbcCatalog();
        catalog.setConf(new Configuration());
        // A JDBC catalog keeps its tables under its name: the guide's CREATE CATALOG calls it lake.
        catalog.initialize("lake", properties);
        return catalog;
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .toList();
        }
    }
}
