package dev.icebergflink;

import dev.icebergflink.util.SecretMasking;
import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.hadoop.SerializableConfiguration;

/**
 * A serializable recipe for an Iceberg {@link Catalog}: the catalog's name, its implementation
 * class, its properties and the Hadoop {@link Configuration} it runs with.
 *
 * <p>It exists because Flink ships job graphs, operators and SQL plans between JVMs, while Iceberg
 * catalogs hold connections and thread pools and cannot travel. Every operator that needs the
 * catalog carries a {@code CatalogLoader} and calls {@link #loadCatalog()} where it runs.
 *
 * <p>Create one with {@link #hadoop}, {@link #hive}, {@link #rest} or {@link #custom}. Each call of
 * {@link #loadCatalog()} builds a fresh, initialized catalog through Iceberg's {@link
 * CatalogUtil#loadCatalog}; the caller owns it and closes it when it is {@link java.io.Closeable}.
 * The Hadoop configuration is serialized through Iceberg's {@link SerializableConfiguration}, so it
 * arrives complete on the task managers.
 *
 * <p>{@link #toString()} never shows secret property values (see {@link SecretMasking}).
 */
@PublicEvolving
public final class CatalogLoader implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The catalog property holding the warehouse location. */
    static final String WAREHOUSE = "warehouse";

    /**
     * The catalog property holding the server address of Hive (thrift) and REST (http) catalogs.
     */
    static final String URI = "uri";

    private final String name;
    private final String type;
    private final String implementation;
    private final HashMap<String, String> properties;
    private final SerializableConfiguration hadoopConf;

    private CatalogLoader(
            String name,
            String type,
            String implementation,
            Map<String, String> properties,
            Configuration hadoopConf) {
        this.name = name;
        this.type = type;
        this.implementation = implementation;
        this.properties = new HashMap<>(properties);
        // Copy: later changes by the caller must not change what this loader builds.
        this.hadoopConf = new SerializableConfiguration(new Configuration(hadoopConf));
    }

    /**
     * A loader of Iceberg's Hadoop catalog, which keeps its tables as directories under the {@code
     * warehouse} location (required, for example {@code hdfs://namenode:8020/warehouse} or {@code
     * file:///tmp/warehouse}).
     *
     * @throws IllegalArgumentException if an argument is missing or {@code warehouse} is not set
     */
    public static CatalogLoader hadoop(
            String name, Configuration conf, Map<String, String> properties) {
        validate(name, conf, properties, "hadoop");
        requireProperty(
                name,
                properties,
                "hadoop",
                WAREHOUSE,
                "the root location of its tables, e.g. 'warehouse'='hdfs://namenode:8020/warehouse'"
                        + " or 'warehouse'='file:///tmp/warehouse'");
        return new CatalogLoader(
                name, "hadoop", CatalogUtil.ICEBERG_CATALOG_HADOOP, properties, conf);
    }

    /**
     * A loader of Iceberg's Hive catalog, which keeps table pointers in a Hive Metastore. The
     * metastore address comes from the {@code uri} property ({@code thrift://host:9083}) or, when
     * absent, from {@code hive.metastore.uris} in the Hadoop configuration ({@code hive-site.xml}).
     * The Hive metastore client jars are needed only when the catalog is loaded.
     *
     * @throws IllegalArgumentException if an argument is missing or {@code uri} is not a thrift URI
     */
    public static CatalogLoader hive(
            String name, Configuration conf, Map<String, String> properties) {
        validate(name, conf, properties, "hive");
        String uri = properties.get(URI);
        if (uri != null && !uri.isBlank()) {
            for (String single : uri.split(",")) {
                if (!single.trim().toLowerCase(Locale.ROOT).startsWith("thrift://")) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Hive catalog '%s': the 'uri' property must list thrift URIs of"
                                            + " Hive Metastores, e.g. 'uri'='thrift://metastore:9083',"
                                            + " but was '%s'",
                                    name, SecretMasking.maskUri(uri)));
                }
            }
        }
        return new CatalogLoader(name, "hive", CatalogUtil.ICEBERG_CATALOG_HIVE, properties, conf);
    }

    /**
     * A loader of Iceberg's REST catalog client, which talks to the catalog server at the {@code
     * uri} property (required, for example {@code http://localhost:8181}).
     *
     * @throws IllegalArgumentException if an argument is missing or {@code uri} is not set
     */
    public static CatalogLoader rest(
            String name, Configuration conf, Map<String, String> properties) {
        validate(name, conf, properties, "rest");
        requireProperty(
                name,
                properties,
                "rest",
                URI,
                "the address of the REST catalog server, e.g. 'uri'='http://localhost:8181'");
        return new CatalogLoader(name, "rest", CatalogUtil.ICEBERG_CATALOG_REST, properties, conf);
    }

    /**
     * A loader of any {@link Catalog} implementation by class name, for example {@code
     * org.apache.iceberg.jdbc.JdbcCatalog}. The class needs a public no-argument constructor; it
     * receives {@code properties} through {@link Catalog#initialize} and the Hadoop configuration
     * through {@code setConf} when it is Hadoop-{@code Configurable}. It is looked up first in the
     * connector's class loader, then in the thread's context class loader (the job's user code).
     *
     * @throws IllegalArgumentException if an argument is missing
     */
    public static CatalogLoader custom(
            String name, Map<String, String> properties, Configuration conf, String impl) {
        validate(name, conf, properties, "custom");
        if (impl == null || impl.isBlank()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Custom catalog '%s' needs the name of its Catalog implementation class,"
                                    + " e.g. 'org.apache.iceberg.jdbc.JdbcCatalog'",
                            name));
        }
        return new CatalogLoader(name, "custom", impl.trim(), properties, conf);
    }

    /**
     * Builds a new, initialized catalog. Every call returns a new instance that the caller must
     * close when it implements {@link java.io.Closeable}.
     *
     * @throws IllegalArgumentException if the implementation class cannot be found or is no Iceberg
     *     {@link Catalog}
     * @throws IllegalStateException if a class the catalog needs is missing at run time (for
     *     example the Hive metastore client for a Hive catalog)
     */
    public Catalog loadCatalog() {
        return CatalogClassLoading.load(
                name, type, implementation, new HashMap<>(properties), hadoopConf.get());
    }

    /** The catalog's name, as given to Iceberg and shown in table names ({@code name.db.table}). */
    public String name() {
        return name;
    }

    /** An unmodifiable copy of the catalog properties. It may hold secrets: do not log it. */
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** The catalog's kind: {@code hadoop}, {@code hive}, {@code rest} or {@code custom}. */
    public String type() {
        return type;
    }

    /** The fully qualified name of the {@link Catalog} class this loader builds. */
    public String implementation() {
        return implementation;
    }

    /** A copy of the Hadoop configuration the catalog is built with. */
    public Configuration hadoopConf() {
        return new Configuration(hadoopConf.get());
    }

    /** Name, type, implementation and properties, with secret values masked. */
    @Override
    public String toString() {
        return "CatalogLoader{name="
                + name
                + ", type="
                + type
                + ", impl="
                + implementation
                + ", properties="
                + SecretMasking.maskProperties(properties)
                + "}";
    }

    private static void validate(
            String name, Configuration conf, Map<String, String> properties, String type) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "A " + type + " catalog needs a non-empty catalog name, e.g. 'my_catalog'");
        }
        if (conf == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Catalog '%s' needs a Hadoop Configuration; pass new Configuration()"
                                    + " to use the defaults and the *-site.xml files on the class"
                                    + " path",
                            name));
        }
        if (properties == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Catalog '%s' needs a properties map (it may be empty), not null",
                            name));
        }
        properties.forEach(
                (key, value) -> {
                    if (key == null || value == null) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Catalog '%s' has a property with a null %s (key '%s');"
                                                + " remove it or give it a value",
                                        name, key == null ? "key" : "value", key));
                    }
                });
    }

    private static void requireProperty(
            String name,
            Map<String, String> properties,
            String type,
            String key,
            String explanation) {
        String value = properties.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The '%s' property is required for %s catalog '%s': %s",
                            key, type, name, explanation));
        }
    }
}
