package dev.icebergflink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.io.Closeable;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.util.InstantiationUtil;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class CatalogLoaderTest {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    private static final TableIdentifier TABLE = TableIdentifier.of("db", "t");

    @TempDir Path dir;

    @Test
    void hadoopCatalogSurvivesSerializationAndLoadsRealTables() throws Exception {
        Configuration conf = new Configuration();
        conf.set("test.marker", "from-client");
        CatalogLoader loader = CatalogLoader.hadoop("hcat", conf, warehouse());

        CatalogLoader copy = roundTrip(loader);

        assertThat(copy.name()).isEqualTo("hcat");
        assertThat(copy.type()).isEqualTo("hadoop");
        assertThat(copy.hadoopConf().get("test.marker")).isEqualTo("from-client");
        Catalog writer = loader.loadCatalog();
        Catalog reader = copy.loadCatalog();
        try {
            assertThat(writer).isInstanceOf(HadoopCatalog.class).isNotSameAs(reader);
            assertThat(((Configurable) reader).getConf().get("test.marker"))
                    .isEqualTo("from-client");
            assertThat(reader.name()).isEqualTo("hcat");
            Table created = writer.createTable(TABLE, TestingTables.SCHEMA);
            TestingTables.append(created, 1, 2);

            Table loaded = reader.loadTable(TABLE);
            assertThat(loaded.location()).isEqualTo(created.location());
            assertThat(TestingTables.rows(loaded)).containsExactly("1:name-1", "2:name-2");
        } finally {
            close(writer, reader);
        }
    }

    @Test
    void eachLoadBuildsAFreshCatalogWithItsOwnConfiguration() throws Exception {
        Configuration conf = new Configuration();
        CatalogLoader loader = CatalogLoader.hadoop("hcat", conf, warehouse());
        conf.set("test.marker", "changed-after-creation");

        Catalog first = loader.loadCatalog();
        Catalog second = loader.loadCatalog();
        try {
            assertThat(first).isNotSameAs(second);
            assertThat(((Configurable) first).getConf())
                    .isNotSameAs(((Configurable) second).getConf());
            assertThat(((Configurable) first).getConf().get("test.marker")).isNull();
            assertThat(loader.hadoopConf().get("test.marker")).isNull();
        } finally {
            close(first, second);
        }
    }

    @Test
    void customJdbcCatalogOnSqliteSurvivesSerialization() throws Exception {
        CatalogLoader loader =
                CatalogLoader.custom(
                        "jdbc_cat",
                        jdbcProperties(),
                        new Configuration(),
                        "org.apache.iceberg.jdbc.JdbcCatalog");

        CatalogLoader copy = roundTrip(loader);

        assertThat(copy.type()).isEqualTo("custom");
        assertThat(copy.implementation()).isEqualTo(JdbcCatalog.class.getName());
        Catalog writer = loader.loadCatalog();
        Catalog reader = copy.loadCatalog();
        try {
            ((SupportsNamespaces) writer).createNamespace(Namespace.of("db"), new HashMap<>());
            TestingTables.append(writer.createTable(TABLE, TestingTables.SCHEMA), 7);

            assertThat(reader).isInstanceOf(JdbcCatalog.class);
            assertThat(reader.listTables(Namespace.of("db"))).containsExactly(TABLE);
            assertThat(TestingTables.rows(reader.loadTable(TABLE))).containsExactly("7:name-7");
        } finally {
            close(writer, reader);
        }
    }

    @Test
    void restCatalogTalksToARealServerAfterSerialization() throws Exception {
        Map<String, String> properties = REST.clientProperties();
        CatalogLoader loader = CatalogLoader.rest("rest_cat", new Configuration(), properties);

        CatalogLoader copy = roundTrip(loader);

        Catalog writer = loader.loadCatalog();
        Catalog reader = copy.loadCatalog();
        Namespace namespace = Namespace.of("rest_db");
        TableIdentifier identifier = TableIdentifier.of(namespace, "t");
        try {
            assertThat(reader).isInstanceOf(RESTCatalog.class);
            // A mutable map: the REST client rejects immutable ones.
            ((SupportsNamespaces) writer).createNamespace(namespace, new HashMap<>());
            TestingTables.append(writer.createTable(identifier, TestingTables.SCHEMA), 3, 4);

            assertThat(TestingTables.rows(reader.loadTable(identifier)))
                    .containsExactly("3:name-3", "4:name-4");
            assertThat(REST.backend().tableExists(identifier)).isTrue();
        } finally {
            close(writer, reader);
        }
    }

    @Test
    void catalogIsBuiltEvenWhenTheContextClassLoaderCannotSeeIceberg() throws Exception {
        // As in the SQL client with the connector given by -j / ADD JAR.
        ClassLoader blind = new URLClassLoader(new URL[0], null);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(blind);
        try {
            Catalog catalog =
                    CatalogLoader.hadoop("hcat", new Configuration(), warehouse()).loadCatalog();
            assertThat(catalog).isInstanceOf(HadoopCatalog.class);
            assertThat(thread.getContextClassLoader()).isSameAs(blind);
            close(catalog);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void hadoopCatalogRequiresAWarehouse() {
        assertThatThrownBy(() -> CatalogLoader.hadoop("hcat", new Configuration(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'warehouse' property is required")
                .hasMessageContaining("hadoop catalog 'hcat'")
                .hasMessageContaining("e.g. 'warehouse'='hdfs://");
        assertThatThrownBy(
                        () ->
                                CatalogLoader.hadoop(
                                        "hcat", new Configuration(), Map.of("warehouse", " ")))
                .hasMessageContaining("'warehouse' property is required");
    }

    @Test
    void restCatalogRequiresAUri() {
        assertThatThrownBy(() -> CatalogLoader.rest("r", new Configuration(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'uri' property is required")
                .hasMessageContaining("rest catalog 'r'")
                .hasMessageContaining("'uri'='http://localhost:8181'");
    }

    @Test
    void customCatalogRequiresAnImplementationClass() {
        assertThatThrownBy(() -> CatalogLoader.custom("c", Map.of(), new Configuration(), "  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Custom catalog 'c'")
                .hasMessageContaining("org.apache.iceberg.jdbc.JdbcCatalog");
    }

    @Test
    void commonArgumentsAreValidated() {
        Map<String, String> warehouse = warehouse();
        assertThatThrownBy(() -> CatalogLoader.hadoop(" ", new Configuration(), warehouse))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-empty catalog name");
        assertThatThrownBy(() -> CatalogLoader.hadoop("h", null, warehouse))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a Hadoop Configuration")
                .hasMessageContaining("new Configuration()");
        assertThatThrownBy(() -> CatalogLoader.rest("r", new Configuration(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a properties map");
        Map<String, String> withNull = new HashMap<>(warehouse);
        withNull.put("io-impl", null);
        assertThatThrownBy(() -> CatalogLoader.hadoop("h", new Configuration(), withNull))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null value (key 'io-impl')");
    }

    @Test
    void unknownImplementationClassIsReportedWithItsName() {
        CatalogLoader loader =
                CatalogLoader.custom(
                        "c", Map.of(), new Configuration(), "com.example.NoSuchCatalog");

        assertThatThrownBy(loader::loadCatalog)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'com.example.NoSuchCatalog'")
                .hasMessageContaining("catalog 'c'");
    }

    @Test
    void implementationThatIsNoCatalogIsRejected() {
        CatalogLoader loader =
                CatalogLoader.custom("c", Map.of(), new Configuration(), "java.lang.String");

        assertThatThrownBy(loader::loadCatalog)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.String");
    }

    @Test
    void hiveCatalogIsConfiguredWithoutHiveJarsAndExplainsWhatIsMissingWhenLoaded() {
        Configuration conf = new Configuration();
        conf.set("hive.metastore.uris", "thrift://metastore:9083");
        CatalogLoader fromConf = CatalogLoader.hive("hive_cat", conf, Map.of());
        CatalogLoader fromUri =
                CatalogLoader.hive(
                        "hive_cat",
                        new Configuration(),
                        Map.of("uri", "thrift://a:9083,thrift://b:9083", "clients", "2"));

        assertThat(fromConf.implementation()).isEqualTo("org.apache.iceberg.hive.HiveCatalog");
        assertThat(fromConf.type()).isEqualTo("hive");
        assertThat(fromUri.properties()).containsEntry("clients", "2");
        // The Hive metastore client is not on this module's test class path.
        assertThatThrownBy(fromUri::loadCatalog)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hive catalog 'hive_cat'")
                .hasMessageContaining("is missing at run time")
                .hasMessageContaining("Hive metastore client jars");
    }

    @Test
    void hiveCatalogRejectsANonThriftUri() {
        assertThatThrownBy(
                        () ->
                                CatalogLoader.hive(
                                        "h",
                                        new Configuration(),
                                        Map.of("uri", "http://bob:hunter2@metastore:9083")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("thrift URIs")
                .hasMessageContaining("'uri'='thrift://metastore:9083'")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void propertiesAreAnUnmodifiableCopy() {
        Map<String, String> properties = warehouse();
        CatalogLoader loader = CatalogLoader.hadoop("h", new Configuration(), properties);
        properties.put("added-later", "x");

        assertThat(loader.properties()).containsOnlyKeys("warehouse");
        assertThatThrownBy(() -> loader.properties().put("k", "v"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toStringNeverShowsSecrets() {
        Map<String, String> properties = new HashMap<>(secretProperties());
        properties.put("warehouse", "s3://bucket/warehouse");
        properties.put("uri", "http://rest:8181");
        List<CatalogLoader> loaders =
                List.of(
                        CatalogLoader.hadoop("h", new Configuration(), properties),
                        CatalogLoader.rest("r", new Configuration(), properties),
                        CatalogLoader.custom(
                                "c",
                                properties,
                                new Configuration(),
                                "org.apache.iceberg.jdbc.JdbcCatalog"));

        for (CatalogLoader loader : loaders) {
            String text = loader.toString();
            assertThat(text)
                    .contains(loader.name())
                    .contains("s3://bucket/warehouse")
                    .contains("s3.secret-access-key=******")
                    .doesNotContain("AWS-SECRET", "JDBC-PASSWORD", "BEARER-TOKEN", "CLIENT-SECRET");
        }
        Map<String, String> hive = new HashMap<>(secretProperties());
        hive.put("uri", "thrift://metastore:9083");
        assertThat(CatalogLoader.hive("hv", new Configuration(), hive).toString())
                .contains("thrift://metastore:9083")
                .doesNotContain("AWS-SECRET", "JDBC-PASSWORD", "BEARER-TOKEN", "CLIENT-SECRET");
    }

    static Map<String, String> secretProperties() {
        Map<String, String> properties = new HashMap<>();
        properties.put("s3.secret-access-key", "AWS-SECRET");
        properties.put("s3.access-key-id", "AWS-SECRET-ID");
        properties.put("jdbc.password", "JDBC-PASSWORD");
        properties.put("token", "BEARER-TOKEN");
        properties.put("credential", "client-id:CLIENT-SECRET");
        return properties;
    }

    private Map<String, String> warehouse() {
        Map<String, String> properties = new HashMap<>();
        properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
        return properties;
    }

    private Map<String, String> jdbcProperties() {
        Map<String, String> properties = new HashMap<>();
        properties.put("uri", "jdbc:sqlite:file:" + dir.resolve("cat.db"));
        properties.put("warehouse", dir.resolve("jdbc-warehouse").toUri().toString());
        properties.put("jdbc.schema-version", "V1");
        return properties;
    }

    static <T> T roundTrip(T object) throws Exception {
        byte[] bytes = InstantiationUtil.serializeObject(object);
        return InstantiationUtil.deserializeObject(bytes, CatalogLoaderTest.class.getClassLoader());
    }

    private static void close(Catalog... catalogs) throws Exception {
        for (Catalog catalog : catalogs) {
            if (catalog instanceof Closeable closeable) {
                closeable.close();
            }
        }
    }
}
