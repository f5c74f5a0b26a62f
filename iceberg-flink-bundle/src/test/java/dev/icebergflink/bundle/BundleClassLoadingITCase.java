package dev.icebergflink.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.types.Row;
import org.apache.flink.util.ChildFirstClassLoader;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.FlinkUserCodeClassLoaders;
import org.apache.flink.util.MutableURLClassLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the bundle the two ways Flink does and uses the {@code iceberg} catalog through it, while
 * the thread context class loader is the cluster's class loader (Flink and Hadoop only). That is
 * the situation in which Iceberg's own runtime jar fails with {@code ClassNotFoundException} for
 * its catalog classes when it arrives through the SQL client's {@code -j} or {@code ADD JAR}.
 *
 * <ul>
 *   <li>{@code lib/}: a parent-first {@link URLClassLoader} over the jar, the test class path as
 *       parent;
 *   <li>{@code -j} / {@code ADD JAR}: Flink's child-first user class loader ({@link
 *       FlinkUserCodeClassLoaders#childFirst}) over the jar with Flink's default parent-first
 *       patterns, and a SQL {@link TableEnvironment} whose user class loader it is;
 *   <li>{@code ADD JAR} itself in a SQL {@link TableEnvironment}.
 * </ul>
 *
 * <p>Failsafe keeps our modules and the libraries the bundle carries off this test's class path
 * (see the module's pom), so every connector class comes from the jar.
 */
class BundleClassLoadingITCase {

    /** The class loader of the cluster: Flink, Hadoop and the test libraries. */
    private static final ClassLoader CLUSTER = BundleClassLoadingITCase.class.getClassLoader();

    private static final String FACTORY_CLASS =
            "dev.icebergflink.table.catalog.FlinkCatalogFactory";

    @TempDir private Path warehouse;

    @BeforeEach
    void contextIsTheClusterLoader() {
        Thread.currentThread().setContextClassLoader(CLUSTER);
    }

    @Test
    void testClassPathHoldsFlinkAndHadoopButNotTheConnector() {
        assertLoadable(CLUSTER, "org.apache.flink.table.factories.FactoryUtil");
        assertLoadable(CLUSTER, "org.apache.hadoop.conf.Configuration");
        for (String absent :
                List.of(
                        FACTORY_CLASS,
                        "dev.icebergflink.FlinkSchemaUtil",
                        "org.apache.iceberg.hadoop.HadoopCatalog",
                        "org.apache.parquet.hadoop.ParquetFileWriter",
                        "org.apache.flink.formats.parquet.vector.reader.LongColumnReader",
                        "org.apache.orc.OrcFile",
                        "org.apache.avro.Schema")) {
            assertThatThrownBy(() -> Class.forName(absent, false, CLUSTER))
                    .as("%s must come from the bundle only", absent)
                    .isInstanceOf(ClassNotFoundException.class);
        }
    }

    @Test
    void parentFirstLoaderAsInFlinkLib() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {BundleJar.url()}, CLUSTER)) {
            useHadoopCatalogThroughTheFactory(loader);
        }
    }

    @Test
    void childFirstUserClassLoaderAsWithJarOrAddJar() throws Exception {
        try (MutableURLClassLoader loader = userClassLoader()) {
            useHadoopCatalogThroughTheFactory(loader);
        }
    }

    @Test
    void sqlCatalogDdlWithTheBundleInTheUserClassLoader() throws Exception {
        try (MutableURLClassLoader loader = userClassLoader()) {
            TableEnvironment env =
                    TableEnvironment.create(
                            EnvironmentSettings.newInstance()
                                    .inBatchMode()
                                    .withClassLoader(loader)
                                    .build());
            env.executeSql(createHadoopCatalog("ice")).await();
            env.executeSql("CREATE DATABASE ice.sales").await();
            env.executeSql("CREATE TABLE ice.sales.orders (id BIGINT, item STRING)").await();
            env.executeSql("USE CATALOG ice").await();

            assertThat(rows(env, "SHOW DATABASES")).contains("sales");
            assertThat(rows(env, "SHOW TABLES FROM sales")).containsExactly("orders");
            assertThat(rows(env, "SHOW COLUMNS FROM sales.orders")).containsExactly("id", "item");
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(CLUSTER);
        }
        assertThat(warehouse.resolve("sales/orders/metadata/v1.metadata.json")).isRegularFile();
    }

    @Test
    void sqlAddJarThenCatalogDdl() throws Exception {
        TableEnvironment env =
                TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode().build());
        assertThatThrownBy(() -> env.executeSql(createHadoopCatalog("before")))
                .as("without the bundle there is no iceberg factory")
                .hasStackTraceContaining("Could not find any factory for identifier 'iceberg'");

        env.executeSql(String.format("ADD JAR '%s'", BundleJar.path())).await();
        env.executeSql(createHadoopCatalog("ice")).await();
        env.executeSql("CREATE DATABASE ice.sales").await();
        env.executeSql("CREATE TABLE ice.sales.orders (id BIGINT, item STRING)").await();

        assertThat(rows(env, "SHOW JARS")).containsExactly(BundleJar.path().toString());
        assertThat(rows(env, "SHOW TABLES FROM ice.sales")).containsExactly("orders");
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(CLUSTER);
        assertThat(warehouse.resolve("sales/orders/metadata/v1.metadata.json")).isRegularFile();
    }

    private String createHadoopCatalog(String name) {
        return String.format(
                "CREATE CATALOG %s WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                name, warehouse.toUri());
    }

    /**
     * Discovers the factory in {@code loader}, creates a Hadoop catalog through it and creates and
     * lists a database and a table, with the cluster's loader as thread context class loader.
     */
    private void useHadoopCatalogThroughTheFactory(ClassLoader loader) throws Exception {
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(CLUSTER);

        List<String> registered =
                ServiceLoader.load(Factory.class, loader).stream()
                        .map(provider -> provider.type().getName())
                        .filter(name -> name.startsWith("dev.icebergflink."))
                        .collect(Collectors.toList());
        assertThat(registered).contains(FACTORY_CLASS);

        CatalogFactory factory =
                FactoryUtil.discoverFactory(loader, CatalogFactory.class, "iceberg");
        assertThat(factory.getClass().getName()).isEqualTo(FACTORY_CLASS);
        assertFromBundle(factory.getClass(), loader);

        Catalog catalog =
                FactoryUtil.createCatalog(
                        "ice",
                        Map.of(
                                "type", "iceberg",
                                "catalog-type", "hadoop",
                                "warehouse", warehouse.toUri().toString()),
                        new Configuration(),
                        loader);
        assertFromBundle(catalog.getClass(), loader);
        catalog.open();
        try {
            catalog.createDatabase("sales", new CatalogDatabaseImpl(Map.of(), null), false);
            ResolvedSchema schema =
                    ResolvedSchema.of(
                            Column.physical("id", DataTypes.BIGINT().notNull()),
                            Column.physical("item", DataTypes.STRING()));
            CatalogTable table =
                    CatalogTable.newBuilder()
                            .schema(
                                    org.apache.flink.table.api.Schema.newBuilder()
                                            .fromResolvedSchema(schema)
                                            .build())
                            .comment("orders")
                            .build();
            ObjectPath path = new ObjectPath("sales", "orders");
            catalog.createTable(path, new ResolvedCatalogTable(table, schema), false);

            assertThat(catalog.listDatabases()).contains("sales");
            assertThat(catalog.listTables("sales")).containsExactly("orders");
            CatalogBaseTable loaded = catalog.getTable(path);
            assertThat(loaded.getUnresolvedSchema().getColumns())
                    .extracting(org.apache.flink.table.api.Schema.UnresolvedColumn::getName)
                    .containsExactly("id", "item");
        } finally {
            catalog.close();
        }
        assertThat(warehouse.resolve("sales/orders/metadata/v1.metadata.json")).isRegularFile();
        assertThat(Files.readString(warehouse.resolve("sales/orders/metadata/v1.metadata.json")))
                .contains("\"name\":\"id\"", "\"name\":\"item\"");
        assertFromBundle(
                Class.forName("org.apache.iceberg.hadoop.HadoopCatalog", false, loader), loader);
    }

    /**
     * Flink's user class loader for {@code -j} / {@code ADD JAR} jars: child-first, with Flink's
     * default always-parent-first patterns and its leak-checking wrapper.
     */
    private static MutableURLClassLoader userClassLoader() {
        Configuration config = new Configuration();
        return FlinkUserCodeClassLoaders.childFirst(
                new URL[] {BundleJar.url()},
                CLUSTER,
                CoreOptions.getParentFirstLoaderPatterns(config),
                error -> {},
                true);
    }

    private static void assertFromBundle(Class<?> type, ClassLoader loader) {
        ClassLoader definer = type.getClassLoader();
        assertThat(definer).as("class loader of %s", type.getName()).isNotSameAs(CLUSTER);
        if (loader instanceof URLClassLoader && !(loader instanceof MutableURLClassLoader)) {
            assertThat(definer).isSameAs(loader);
        } else {
            assertThat(definer).isInstanceOf(ChildFirstClassLoader.class);
        }
    }

    private static void assertLoadable(ClassLoader loader, String className) {
        try {
            Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(className + " is missing from the test class path", e);
        }
    }

    /** The first column of every row a statement returns, as strings. */
    private static List<String> rows(TableEnvironment env, String statement) throws Exception {
        try (CloseableIterator<Row> rows = env.executeSql(statement).collect()) {
            List<String> values = new java.util.ArrayList<>();
            rows.forEachRemaining(row -> values.add(String.valueOf(row.getField(0))));
            return values;
        }
    }
}
