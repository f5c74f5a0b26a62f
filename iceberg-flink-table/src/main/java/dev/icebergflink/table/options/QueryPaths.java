package dev.icebergflink.table.options;

import dev.icebergflink.table.FlinkConfigOptions;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

/**
 * Enforces {@code table.exec.iceberg.allow-query-paths}: with it false, SQL statements may not set
 * file system paths or Hadoop settings of their own.
 *
 * <p>It exists for shared SQL gateways, where the statements of many users run in one process with
 * the operator's credentials: a statement that names a Hadoop configuration directory, adds Hadoop
 * settings, or points spill files or temporary manifests to a path of its choosing could read or
 * write where its user may not. The switch is read from the Flink configuration file of the process
 * that plans the statement ({@link GlobalConfiguration#loadConfiguration()}: the file in {@code
 * $FLINK_CONF_DIR}, read once per process), which a session cannot change, and from the session's
 * configuration; false in either one forbids, so a {@code SET} can only forbid. Values that a
 * session configuration shares with the file (the operator's own settings, which reach every
 * session) are allowed.
 */
@Internal
public final class QueryPaths {

    /** Catalog options naming local directories. */
    private static final Set<String> CATALOG_PATH_KEYS =
            Set.of(
                    FlinkCatalogOptions.HADOOP_CONF_DIR.key(),
                    FlinkCatalogOptions.HIVE_CONF_DIR.key());

    /** Catalog options that are Hadoop settings of the catalog (the prefix is dropped). */
    private static final String CATALOG_HADOOP_PREFIX = CatalogHadoopConf.CATALOG_HADOOP_PREFIX;

    /** Session configuration keys that are Hadoop settings of every catalog. */
    private static final String SESSION_HADOOP_PREFIX = CatalogHadoopConf.FLINK_HADOOP_PREFIX;

    /** Write options and table properties naming paths. */
    private static final Set<String> TABLE_PATH_KEYS =
            Set.of(
                    "upsert-spill-directory",
                    "flink.manifests.location",
                    "write.data.path",
                    "write.metadata.path",
                    "write.object-storage.path",
                    "write.folder-storage.path");

    /** Session configuration keys naming paths (Flink configuration keys of write options). */
    private static final List<String> SESSION_PATH_KEYS = List.of("upsert-spill-directory");

    private QueryPaths() {}

    /**
     * Fails when paths are forbidden and the options of catalog {@code catalogName} (of a {@code
     * CREATE CATALOG} or a connector table) set one, or the session sets Hadoop settings of its
     * own.
     */
    public static void checkCatalogOptions(
            String catalogName, Map<String, String> options, ReadableConfig session) {
        Configuration file = fileConfiguration();
        if (allowed(file, session)) {
            return;
        }
        Set<String> forbidden = new TreeSet<>();
        for (String key : options.keySet()) {
            if (CATALOG_PATH_KEYS.contains(key) || key.startsWith(CATALOG_HADOOP_PREFIX)) {
                forbidden.add(key);
            }
        }
        reject("Catalog '" + catalogName + "'", "option", forbidden);
        checkSession(file, session, SESSION_HADOOP_PREFIX);
    }

    /**
     * Fails when paths are forbidden and the options of table {@code tableName} (hints, connector
     * table options, table properties of a {@code CREATE TABLE}) set one.
     */
    public static void checkTableOptions(
            String tableName, Map<String, String> options, ReadableConfig session) {
        Configuration file = fileConfiguration();
        if (allowed(file, session)) {
            return;
        }
        Set<String> forbidden = new TreeSet<>();
        for (String key : options.keySet()) {
            if (TABLE_PATH_KEYS.contains(key)
                    || CATALOG_PATH_KEYS.contains(key)
                    || key.startsWith(CATALOG_HADOOP_PREFIX)) {
                forbidden.add(key);
            }
        }
        reject("Table " + tableName, "option", forbidden);
        for (String key : SESSION_PATH_KEYS) {
            checkSession(file, session, key);
        }
        // a connector table builds its catalog with the session's Hadoop settings
        checkSession(file, session, SESSION_HADOOP_PREFIX);
    }

    /**
     * Fails when {@code keys}, the options of a {@code CREATE TABLE} or the keys an {@code ALTER
     * TABLE ... SET} changes, include a path (also {@code location}); for catalogs created with
     * paths forbidden, which call it without looking at the switch again.
     */
    public static void rejectTablePaths(String tableName, java.util.Collection<String> keys) {
        Set<String> forbidden = new TreeSet<>();
        for (String key : keys) {
            if (TABLE_PATH_KEYS.contains(key) || key.equals("location")) {
                forbidden.add(key);
            }
        }
        reject("Table " + tableName, "option", forbidden);
    }

    /** Whether paths are allowed: true unless the file or the session says false. */
    public static boolean allowed(ReadableConfig session) {
        return allowed(fileConfiguration(), session);
    }

    private static boolean allowed(Configuration file, ReadableConfig session) {
        return file.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_ALLOW_QUERY_PATHS)
                && (session == null
                        || session.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_ALLOW_QUERY_PATHS));
    }

    /** Session keys equal to {@code key} or under the prefix {@code key} that the file lacks. */
    private static void checkSession(Configuration file, ReadableConfig session, String key) {
        if (session == null) {
            return;
        }
        Map<String, String> fromFile = file.toMap();
        Set<String> forbidden = new TreeSet<>();
        session.toMap()
                .forEach(
                        (name, value) -> {
                            boolean matches =
                                    key.endsWith(".") ? name.startsWith(key) : name.equals(key);
                            if (matches && !Objects.equals(fromFile.get(name), value)) {
                                forbidden.add(name);
                            }
                        });
        reject("The session", "setting", forbidden);
    }

    private static void reject(String subject, String kind, Set<String> keys) {
        if (keys.isEmpty()) {
            return;
        }
        throw new ValidationException(
                String.format(
                        "%s sets %s %s, a file system path or Hadoop setting, which this"
                                + " deployment does not allow statements to choose:"
                                + " '%s'=false in the Flink configuration. Remove %s; paths"
                                + " and Hadoop settings come from the operator's"
                                + " configuration.",
                        subject,
                        kind + (keys.size() == 1 ? "" : "s"),
                        String.join(", ", keys.stream().map(k -> "'" + k + "'").toList()),
                        FlinkConfigOptions.TABLE_EXEC_ICEBERG_ALLOW_QUERY_PATHS.key(),
                        keys.size() == 1 ? "it" : "them"));
    }

    /** The directory of the configuration file to read instead of $FLINK_CONF_DIR (tests). */
    private static volatile String configurationDirectory;

    /**
     * Reads the Flink configuration file of {@code directory} instead of $FLINK_CONF_DIR's; null
     * goes back to $FLINK_CONF_DIR (tests, which cannot set the environment of their JVM).
     */
    static void readConfigurationFileOf(String directory) {
        configurationDirectory = directory;
    }

    /**
     * The configuration file, read once per directory: Flink reads it once when a process starts (a
     * changed file needs a restart there too), and every read logs each of its keys.
     */
    private static final Map<String, Configuration> FILES =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static Configuration fileConfiguration() {
        String directory = configurationDirectory;
        if (directory == null) {
            return FILES.computeIfAbsent("", none -> GlobalConfiguration.loadConfiguration());
        }
        return FILES.computeIfAbsent(directory, GlobalConfiguration::loadConfiguration);
    }
}
