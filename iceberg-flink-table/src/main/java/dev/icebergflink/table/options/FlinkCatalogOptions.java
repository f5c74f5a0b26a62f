package dev.icebergflink.table.options;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The options of {@code CREATE CATALOG c WITH ('type'='iceberg', ...)}.
 *
 * <p>It exists so that every catalog option has one described {@link ConfigOption} (the reference
 * documentation is generated from them) and so that one place says which keys are ours and which
 * pass through to the Iceberg catalog.
 *
 * <p>The pass-through rule: a key that is not one of {@link #ALL} is handed to the Iceberg catalog
 * unchanged (for example {@code io-impl}, {@code s3.endpoint}, {@code jdbc.user}, {@code
 * credential}), because custom catalogs and FileIOs take arbitrary properties. Keys that start with
 * one of {@link #RESERVED_PREFIXES} are ours and must be known, and a key within two edits of one
 * of our longer keys (such as {@code default-databse}) is taken for a misspelling; both fail with a
 * {@code ValidationException} that lists the valid keys.
 */
@PublicEvolving
public final class FlinkCatalogOptions {

    /** {@code hive}: Iceberg's {@code HiveCatalog} on a Hive Metastore. */
    public static final String TYPE_HIVE = "hive";

    /** {@code hadoop}: Iceberg's {@code HadoopCatalog} on a file system directory. */
    public static final String TYPE_HADOOP = "hadoop";

    /** {@code rest}: Iceberg's {@code RESTCatalog} client. */
    public static final String TYPE_REST = "rest";

    /** The allowed values of {@link #CATALOG_TYPE}. */
    public static final List<String> CATALOG_TYPES = List.of(TYPE_HIVE, TYPE_HADOOP, TYPE_REST);

    public static final ConfigOption<String> CATALOG_TYPE =
            ConfigOptions.key("catalog-type")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The built-in Iceberg catalog to use: 'hive' (a Hive Metastore at"
                                    + " 'uri'), 'hadoop' (a directory at 'warehouse') or 'rest' (a"
                                    + " REST catalog server at 'uri'). When neither this nor"
                                    + " 'catalog-impl' is set, 'hive' is used. Must not be set"
                                    + " together with 'catalog-impl'.");

    public static final ConfigOption<String> CATALOG_IMPL =
            ConfigOptions.key("catalog-impl")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The fully qualified class name of any other Iceberg Catalog"
                                    + " implementation, e.g. 'org.apache.iceberg.jdbc.JdbcCatalog'."
                                    + " It receives all pass-through properties. Must not be set"
                                    + " together with 'catalog-type'.");

    public static final ConfigOption<Integer> PROPERTY_VERSION =
            FactoryUtil.PROPERTY_VERSION.withDescription(
                    "The version of the catalog property format, for backwards"
                            + " compatibility. The only version is 1.");

    public static final ConfigOption<Boolean> CACHE_ENABLED =
            ConfigOptions.key("cache-enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether loaded Iceberg tables are cached (Iceberg's CachingCatalog)."
                                    + " Cached tables are refreshed whenever Flink asks for a"
                                    + " table, so the cache saves catalog round trips without"
                                    + " serving stale schemas.");

    public static final ConfigOption<Boolean> CACHE_CASE_SENSITIVE =
            ConfigOptions.key("cache.case-sensitive")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether the table cache matches table names case-sensitively.");

    public static final ConfigOption<Long> CACHE_EXPIRATION_INTERVAL_MS =
            ConfigOptions.key("cache.expiration-interval-ms")
                    .longType()
                    .defaultValue(30_000L)
                    .withDescription(
                            "How long, in milliseconds, a cached table stays in the cache after"
                                    + " its last use. The default of 30000 (Iceberg's own) bounds"
                                    + " the cache and lets tables dropped or renamed by other"
                                    + " engines disappear; a negative value never expires entries;"
                                    + " 0 turns the cache off.");

    public static final ConfigOption<String> URI =
            ConfigOptions.key("uri")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The catalog server: 'thrift://host:9083' for a Hive Metastore"
                                    + " (optional when hive-site.xml names it), 'http(s)://host:port'"
                                    + " for a REST catalog (required). Passed to the Iceberg"
                                    + " catalog.");

    public static final ConfigOption<Integer> CLIENTS =
            ConfigOptions.key("clients")
                    .intType()
                    .defaultValue(2)
                    .withDescription(
                            "The size of the Hive Metastore client pool. Passed to the Iceberg"
                                    + " catalog.");

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The warehouse location, e.g. 'hdfs://namenode:8020/warehouse' or"
                                    + " 'file:///tmp/warehouse'. Required for the Hadoop catalog;"
                                    + " for Hive it overrides hive.metastore.warehouse.dir. Passed"
                                    + " to the Iceberg catalog.");

    public static final ConfigOption<String> HIVE_CONF_DIR =
            ConfigOptions.key("hive-conf-dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A local directory with a hive-site.xml whose settings are added to the"
                                    + " Hadoop configuration of the catalog (else a hive-site.xml"
                                    + " on the class path is used). 'uri' and 'warehouse' win over"
                                    + " the values in the file.");

    public static final ConfigOption<String> HADOOP_CONF_DIR =
            ConfigOptions.key("hadoop-conf-dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A local directory with core-site.xml and/or hdfs-site.xml whose"
                                    + " settings are added to the Hadoop configuration of the"
                                    + " catalog.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key("default-database")
                    .stringType()
                    .defaultValue("default")
                    .withDescription(
                            "The database Flink uses when none is given. It is created when the"
                                    + " catalog is opened if it does not exist and the catalog"
                                    + " allows it.");

    public static final ConfigOption<String> BASE_NAMESPACE =
            ConfigOptions.key("base-namespace")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A dot-separated Iceberg namespace under which every Flink database"
                                    + " lives: with 'a.b', the database 'db' is the namespace"
                                    + " 'a.b.db'.");

    /** Iceberg's catalog property of the REST catalog's OAuth2 client credential. */
    public static final String ICEBERG_CREDENTIAL = "credential";

    /**
     * Iceberg's {@code credential} under a key whose value Flink hides: Flink masks the values of
     * keys containing {@code secret} (also {@code password}, {@code token} and a few more) in its
     * own messages, such as the option listing of a failed {@code CREATE CATALOG}, but not {@code
     * credential}.
     */
    public static final ConfigOption<String> CREDENTIAL_SECRET =
            ConfigOptions.key("credential-secret")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The REST catalog's OAuth2 client credential, 'client_id:client_secret'"
                                    + " (or only the secret): the same value as Iceberg's catalog"
                                    + " property 'credential', which it is passed on as. Prefer"
                                    + " this key: Flink hides the values of keys containing"
                                    + " 'secret' in its own messages (e.g. the options it lists"
                                    + " when creating a catalog fails), but shows 'credential'"
                                    + " as it is. Setting both keys to different values is an"
                                    + " error.");

    /** Every option this factory knows. */
    public static final List<ConfigOption<?>> ALL =
            List.of(
                    CATALOG_TYPE,
                    CATALOG_IMPL,
                    PROPERTY_VERSION,
                    CACHE_ENABLED,
                    CACHE_CASE_SENSITIVE,
                    CACHE_EXPIRATION_INTERVAL_MS,
                    URI,
                    CLIENTS,
                    WAREHOUSE,
                    HIVE_CONF_DIR,
                    HADOOP_CONF_DIR,
                    DEFAULT_DATABASE,
                    BASE_NAMESPACE,
                    CREDENTIAL_SECRET);

    /**
     * The options that only configure the Flink side and are not handed to the Iceberg catalog.
     * {@code uri}, {@code clients} and {@code warehouse} are Iceberg catalog properties and pass
     * through.
     */
    static final Set<String> FLINK_ONLY_KEYS =
            Set.of(
                    "type",
                    CATALOG_TYPE.key(),
                    CATALOG_IMPL.key(),
                    PROPERTY_VERSION.key(),
                    CACHE_ENABLED.key(),
                    CACHE_CASE_SENSITIVE.key(),
                    CACHE_EXPIRATION_INTERVAL_MS.key(),
                    HIVE_CONF_DIR.key(),
                    HADOOP_CONF_DIR.key(),
                    DEFAULT_DATABASE.key(),
                    BASE_NAMESPACE.key(),
                    CREDENTIAL_SECRET.key());

    /** Key prefixes that belong to this factory: such keys must be one of {@link #ALL}. */
    public static final List<String> RESERVED_PREFIXES = List.of("catalog-", "cache-", "cache.");

    /** Whether {@code key} starts with one of {@link #RESERVED_PREFIXES}, ignoring case. */
    static boolean hasReservedPrefix(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return RESERVED_PREFIXES.stream().anyMatch(lower::startsWith);
    }

    /** The keys of {@link #ALL}, sorted. */
    static Set<String> knownKeys() {
        return ALL.stream()
                .map(ConfigOption::key)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private FlinkCatalogOptions() {}
}
