package dev.icebergflink;

import static dev.icebergflink.CatalogLoaderTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.hadoop.HadoopTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class TableLoaderTest {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    private static final TableIdentifier TABLE = TableIdentifier.of("db", "t");

    @TempDir Path dir;

    @Test
    void hadoopTableLoaderSurvivesSerializationAndLoadsTheTable() throws Exception {
        String location = dir.resolve("path_table").toUri().toString();
        Table created =
                new HadoopTables(new Configuration())
                        .create(TestingTables.SCHEMA, PartitionSpec.unpartitioned(), location);
        TestingTables.append(created, 1, 2, 3);
        TableLoader loader = TableLoader.fromHadoopTable(location);

        TableLoader copy = roundTrip(loader);

        assertThat(copy.isOpen()).isFalse();
        Table loaded = copy.loadTable();
        assertThat(copy.isOpen()).isTrue();
        assertThat(loaded.location()).isEqualTo(created.location());
        assertThat(TestingTables.rows(loaded)).containsExactly("1:name-1", "2:name-2", "3:name-3");
        copy.close();
    }

    @Test
    void hadoopTableLoaderUsesTheGivenConfiguration() throws Exception {
        String location = dir.resolve("conf_table").toUri().toString();
        new HadoopTables(new Configuration())
                .create(TestingTables.SCHEMA, PartitionSpec.unpartitioned(), location);
        Configuration conf = new Configuration();
        // Every file system is unknown under this scheme mapping: loading must use this conf.
        conf.set("fs.file.impl", "com.example.NoSuchFileSystem");
        conf.setBoolean("fs.file.impl.disable.cache", true);

        TableLoader broken = roundTrip(TableLoader.fromHadoopTable(location, conf));

        assertThatThrownBy(broken::loadTable)
                .hasStackTraceContaining("com.example.NoSuchFileSystem");
        assertThat(TestingTables.rows(TableLoader.fromHadoopTable(location).loadTable())).isEmpty();
    }

    @Test
    void missingHadoopTableNamesItsLocation() {
        String location = dir.resolve("missing").toUri().toString();
        TableLoader loader = TableLoader.fromHadoopTable(location);

        assertThatThrownBy(loader::loadTable)
                .isInstanceOf(NoSuchTableException.class)
                .hasMessageContaining(location.replaceAll("/$", ""));
    }

    @Test
    void catalogTableLoaderOnAHadoopCatalogSurvivesSerialization() throws Exception {
        CatalogLoader catalogLoader = hadoopCatalog("hcat");
        Catalog catalog = catalogLoader.loadCatalog();
        TestingTables.append(catalog.createTable(TABLE, TestingTables.SCHEMA), 5);
        close(catalog);

        TableLoader copy = roundTrip(TableLoader.fromCatalog(catalogLoader, TABLE));

        assertThat(copy.isOpen()).isFalse();
        assertThat(copy.loadTable().name()).isEqualTo("hcat.db.t");
        assertThat(TestingTables.rows(copy.loadTable())).containsExactly("5:name-5");
        copy.close();
        assertThat(copy.isOpen()).isFalse();
    }

    @Test
    void catalogTableLoaderOnAJdbcCatalog() throws Exception {
        CatalogLoader catalogLoader = trackingCatalog("jdbc_cat");
        createTableWithRows(catalogLoader, TABLE, 11, 12);

        try (TableLoader loader = roundTrip(TableLoader.fromCatalog(catalogLoader, TABLE))) {
            assertThat(TestingTables.rows(loader.loadTable()))
                    .containsExactly("11:name-11", "12:name-12");
        }
    }

    @Test
    void catalogTableLoaderOnARestCatalog() throws Exception {
        CatalogLoader catalogLoader =
                CatalogLoader.rest("rest_cat", new Configuration(), REST.clientProperties());
        TableIdentifier identifier = TableIdentifier.of("loader_db", "t");
        createTableWithRows(catalogLoader, identifier, 21);

        try (TableLoader loader = roundTrip(TableLoader.fromCatalog(catalogLoader, identifier))) {
            Table table = loader.loadTable();
            assertThat(TestingTables.rows(table)).containsExactly("21:name-21");
            TestingTables.append(table, 22);
            assertThat(TestingTables.rows(loader.loadTable()))
                    .containsExactly("21:name-21", "22:name-22");
        }
        assertThat(TestingTables.rows(REST.backend().loadTable(identifier)))
                .containsExactly("21:name-21", "22:name-22");
    }

    @Test
    void openAndCloseMayBeCalledRepeatedlyAndInAnyOrder() throws Exception {
        String name = "lifecycle_cat";
        CatalogLoader catalogLoader = trackingCatalog(name);
        createTableWithRows(catalogLoader, TABLE, 1);
        int initialized = TestingTrackingCatalog.initialized(name);
        int closed = TestingTrackingCatalog.closed(name);
        TableLoader loader = TableLoader.fromCatalog(catalogLoader, TABLE);

        loader.close(); // closing an unopened loader does nothing
        assertThat(loader.isOpen()).isFalse();
        assertThat(TestingTrackingCatalog.initialized(name)).isEqualTo(initialized);

        loader.open();
        loader.open(); // opening twice builds one catalog
        assertThat(loader.isOpen()).isTrue();
        assertThat(TestingTrackingCatalog.initialized(name)).isEqualTo(initialized + 1);
        assertThat(TestingTables.rows(loader.loadTable())).containsExactly("1:name-1");
        assertThat(TestingTrackingCatalog.initialized(name)).isEqualTo(initialized + 1);

        loader.close();
        loader.close(); // closing twice closes the catalog once
        assertThat(loader.isOpen()).isFalse();
        assertThat(TestingTrackingCatalog.closed(name)).isEqualTo(closed + 1);

        // Loading after close reopens, without an explicit open().
        assertThat(TestingTables.rows(loader.loadTable())).containsExactly("1:name-1");
        assertThat(loader.isOpen()).isTrue();
        assertThat(TestingTrackingCatalog.initialized(name)).isEqualTo(initialized + 2);
        loader.open();
        assertThat(TestingTables.rows(loader.loadTable())).containsExactly("1:name-1");
        assertThat(TestingTrackingCatalog.initialized(name)).isEqualTo(initialized + 2);

        loader.close();
        assertThat(TestingTrackingCatalog.closed(name)).isEqualTo(closed + 2);
    }

    @Test
    void hadoopTableLoaderMayBeOpenedAndClosedRepeatedly() throws Exception {
        String location = dir.resolve("repeat").toUri().toString();
        TestingTables.append(
                new HadoopTables(new Configuration())
                        .create(TestingTables.SCHEMA, PartitionSpec.unpartitioned(), location),
                9);
        TableLoader loader = TableLoader.fromHadoopTable(location);

        loader.close();
        loader.open();
        loader.open();
        assertThat(TestingTables.rows(loader.loadTable())).containsExactly("9:name-9");
        loader.close();
        loader.close();
        assertThat(loader.isOpen()).isFalse();
        assertThat(TestingTables.rows(loader.loadTable())).containsExactly("9:name-9");
        assertThat(loader.isOpen()).isTrue();
        loader.close();
    }

    @Test
    void cloneIsAFreshIndependentLoader() throws Exception {
        String name = "clone_cat";
        CatalogLoader catalogLoader = trackingCatalog(name);
        createTableWithRows(catalogLoader, TABLE, 4);
        TableLoader original = TableLoader.fromCatalog(catalogLoader, TABLE);
        original.open();

        TableLoader clone = original.clone();

        assertThat(clone).isNotSameAs(original);
        assertThat(clone.isOpen()).isFalse();
        assertThat(clone.toString()).isEqualTo(original.toString());
        assertThat(TestingTables.rows(clone.loadTable())).containsExactly("4:name-4");
        int closedBefore = TestingTrackingCatalog.closed(name);
        original.close();
        assertThat(TestingTrackingCatalog.closed(name)).isEqualTo(closedBefore + 1);
        assertThat(clone.isOpen()).isTrue();
        assertThat(TestingTables.rows(clone.loadTable())).containsExactly("4:name-4");
        clone.close();

        TableLoader hadoop = TableLoader.fromHadoopTable("file:/tmp/somewhere");
        hadoop.open();
        TableLoader hadoopClone = hadoop.clone();
        assertThat(hadoopClone.isOpen()).isFalse();
        assertThat(hadoopClone.toString()).isEqualTo(hadoop.toString());
    }

    @Test
    void missingCatalogTableNamesItsIdentifier() throws Exception {
        CatalogLoader catalogLoader = hadoopCatalog("hcat");
        TableIdentifier missing = TableIdentifier.of("db", "missing");

        try (TableLoader loader = TableLoader.fromCatalog(catalogLoader, missing)) {
            assertThatThrownBy(loader::loadTable)
                    .isInstanceOf(NoSuchTableException.class)
                    .hasMessageContaining("db.missing");
        }
        try (TableLoader loader =
                TableLoader.fromCatalog(
                        CatalogLoader.rest("r", new Configuration(), REST.clientProperties()),
                        TableIdentifier.of("nowhere", "missing"))) {
            assertThatThrownBy(loader::loadTable)
                    .isInstanceOf(NoSuchTableException.class)
                    .hasMessageContaining("nowhere.missing");
        }
    }

    @Test
    void argumentsAreValidated() {
        assertThatThrownBy(() -> TableLoader.fromHadoopTable(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs the table location");
        assertThatThrownBy(() -> TableLoader.fromHadoopTable("file:/tmp/t", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Hadoop Configuration");
        assertThatThrownBy(() -> TableLoader.fromCatalog(null, TABLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a CatalogLoader");
        assertThatThrownBy(() -> TableLoader.fromCatalog(hadoopCatalog("hcat"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("catalog 'hcat' needs a table identifier");
    }

    @Test
    void toStringShowsWhereTheTableIsButNoSecrets() {
        Map<String, String> properties = new HashMap<>(CatalogLoaderTest.secretProperties());
        properties.put("uri", "http://rest:8181");
        TableLoader catalogTable =
                TableLoader.fromCatalog(
                        CatalogLoader.rest("rest_cat", new Configuration(), properties),
                        TableIdentifier.of("db", "events"));
        TableLoader pathTable =
                TableLoader.fromHadoopTable("hdfs://bob:hunter2@namenode:8020/wh/db/events");

        assertThat(catalogTable.toString())
                .contains("rest_cat", "db.events", "http://rest:8181")
                .doesNotContain("AWS-SECRET", "JDBC-PASSWORD", "BEARER-TOKEN", "CLIENT-SECRET");
        assertThat(pathTable.toString())
                .contains("namenode:8020/wh/db/events")
                .doesNotContain("hunter2");
    }

    private CatalogLoader hadoopCatalog(String name) {
        Map<String, String> properties = new HashMap<>();
        properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
        return CatalogLoader.hadoop(name, new Configuration(), properties);
    }

    private CatalogLoader trackingCatalog(String name) {
        Map<String, String> properties = new HashMap<>();
        properties.put("uri", "jdbc:sqlite:file:" + dir.resolve(name + ".db"));
        properties.put("warehouse", dir.resolve(name + "-warehouse").toUri().toString());
        properties.put("jdbc.schema-version", "V1");
        return CatalogLoader.custom(
                name, properties, new Configuration(), TestingTrackingCatalog.class.getName());
    }

    private static void createTableWithRows(
            CatalogLoader catalogLoader, TableIdentifier identifier, long... ids) throws Exception {
        Catalog catalog = catalogLoader.loadCatalog();
        try {
            ((SupportsNamespaces) catalog).createNamespace(identifier.namespace(), new HashMap<>());
            TestingTables.append(catalog.createTable(identifier, TestingTables.SCHEMA), ids);
        } finally {
            close(catalog);
        }
    }

    private static void close(Catalog catalog) throws Exception {
        if (catalog instanceof Closeable closeable) {
            closeable.close();
        }
    }
}
