package dev.icebergflink.table.options;

import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Builds the Hadoop {@link Configuration} an Iceberg catalog created from SQL runs with.
 *
 * <p>It exists because catalogs, file systems and the Hive client read their settings from a Hadoop
 * configuration, and SQL users configure it in several places. Layers, later ones winning:
 *
 * <ol>
 *   <li>Hadoop's defaults and the {@code *-site.xml} files on the class path ({@code new
 *       Configuration()});
 *   <li>{@code core-site.xml} and {@code hdfs-site.xml} from the directory in the {@code
 *       HADOOP_CONF_DIR} environment variable, as Flink's own Hadoop file systems do;
 *   <li>{@code core-site.xml} and {@code hdfs-site.xml} from the {@code hadoop-conf-dir} option;
 *   <li>{@code hive-site.xml} from the {@code hive-conf-dir} option;
 *   <li>keys of the Flink configuration that start with {@code flink.hadoop.}, without that prefix
 *       (Flink's convention, e.g. {@code flink.hadoop.dfs.replication: 2});
 *   <li>options of the catalog itself that start with {@code hadoop.}, without that prefix (e.g.
 *       {@code 'hadoop.dfs.replication'='1'} in {@code CREATE CATALOG}), so that one catalog can
 *       differ from the cluster's defaults. They also stay in the Iceberg catalog's properties,
 *       which ignore unknown keys.
 * </ol>
 *
 * The directories are local paths or {@code file:} URIs. A directory named by an option must exist
 * and hold at least one of the files it is meant for.
 */
@Internal
public final class CatalogHadoopConf {

    /** The prefix of Flink configuration keys that are copied into the Hadoop configuration. */
    static final String FLINK_HADOOP_PREFIX = "flink.hadoop.";

    /** The prefix of catalog options that are copied into the catalog's Hadoop configuration. */
    static final String CATALOG_HADOOP_PREFIX = "hadoop.";

    private static final List<String> HADOOP_FILES = List.of("core-site.xml", "hdfs-site.xml");
    private static final List<String> HIVE_FILES = List.of("hive-site.xml");

    private CatalogHadoopConf() {}

    /**
     * The Hadoop configuration of the catalog {@code settings} describe, in a Flink process with
     * {@code flinkConfig}.
     */
    public static Configuration build(CatalogSettings settings, ReadableConfig flinkConfig) {
        return build(settings, flinkConfig, System.getenv("HADOOP_CONF_DIR"));
    }

    static Configuration build(
            CatalogSettings settings, ReadableConfig flinkConfig, String hadoopConfDirEnv) {
        Configuration conf = new Configuration();
        if (hadoopConfDirEnv != null && !hadoopConfDirEnv.isBlank()) {
            File dir = new File(hadoopConfDirEnv);
            if (dir.isDirectory()) {
                addExisting(conf, dir, HADOOP_FILES);
            }
        }
        if (settings.hadoopConfDir() != null) {
            addRequired(
                    conf,
                    settings.catalogName(),
                    FlinkCatalogOptions.HADOOP_CONF_DIR.key(),
                    settings.hadoopConfDir(),
                    HADOOP_FILES);
        }
        if (settings.hiveConfDir() != null) {
            addRequired(
                    conf,
                    settings.catalogName(),
                    FlinkCatalogOptions.HIVE_CONF_DIR.key(),
                    settings.hiveConfDir(),
                    HIVE_FILES);
        }
        if (flinkConfig != null) {
            for (Map.Entry<String, String> entry : flinkConfig.toMap().entrySet()) {
                if (entry.getKey().startsWith(FLINK_HADOOP_PREFIX)) {
                    conf.set(
                            entry.getKey().substring(FLINK_HADOOP_PREFIX.length()),
                            entry.getValue());
                }
            }
        }
        for (Map.Entry<String, String> entry : settings.catalogProperties().entrySet()) {
            String key = entry.getKey();
            if (key.startsWith(CATALOG_HADOOP_PREFIX)
                    && key.length() > CATALOG_HADOOP_PREFIX.length()) {
                conf.set(key.substring(CATALOG_HADOOP_PREFIX.length()), entry.getValue());
            }
        }
        return conf;
    }

    private static void addRequired(
            Configuration conf,
            String catalogName,
            String option,
            String location,
            List<String> files) {
        File dir = toFile(location);
        if (!dir.isDirectory()) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': '%s'='%s' is not a local directory; it must name a"
                                    + " directory that holds %s",
                            catalogName, option, location, String.join(" or ", files)));
        }
        if (addExisting(conf, dir, files) == 0) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': the directory '%s'='%s' holds none of %s",
                            catalogName, option, location, String.join(", ", files)));
        }
    }

    private static int addExisting(Configuration conf, File dir, List<String> files) {
        int added = 0;
        for (String name : files) {
            File file = new File(dir, name);
            if (file.isFile()) {
                conf.addResource(new Path(file.toURI()));
                added++;
            }
        }
        return added;
    }

    private static File toFile(String location) {
        if (location.startsWith("file:")) {
            try {
                return new File(java.net.URI.create(location));
            } catch (IllegalArgumentException e) {
                return new File(location.substring("file:".length()));
            }
        }
        return new File(location);
    }
}
