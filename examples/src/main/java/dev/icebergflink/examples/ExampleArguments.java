package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.options.CatalogLoaders;
import dev.icebergflink.table.options.CatalogSettings;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.TimeUtils;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The {@code --key value} arguments of the example jobs, parsed the same way for every example so
 * that one command line style works in the IDE, in the ITCases and with {@code flink run}.
 *
 * <p>Keys every example understands:
 *
 * <ul>
 *   <li>{@code --catalog-type hadoop|hive|rest|jdbc} (default {@code hadoop}); {@code jdbc} is
 *       Iceberg's {@code org.apache.iceberg.jdbc.JdbcCatalog} (its driver must be on the class
 *       path), and {@code --catalog.catalog-impl <class>} selects any other catalog class;
 *   <li>{@code --warehouse <uri>} (default {@code file:./warehouse} for the Hadoop catalog; a path
 *       without a scheme is a local directory, resolved against the working directory);
 *   <li>{@code --uri <uri>}: the Hive Metastore ({@code thrift://...}), REST ({@code http://...})
 *       or JDBC ({@code jdbc:...}) address;
 *   <li>{@code --catalog.<key> <value>}: any other catalog property, passed through as in {@code
 *       CREATE CATALOG ... WITH ('<key>'='<value>')} (e.g. {@code --catalog.io-impl
 *       org.apache.iceberg.aws.s3.S3FileIO}, {@code --catalog.s3.endpoint http://127.0.0.1:9000});
 *   <li>{@code --catalog-name <name>} (default {@code examples});
 *   <li>{@code --table <db>.<name>} (each example has its own default);
 *   <li>{@code --parallelism N} (default: the environment's).
 * </ul>
 *
 * The catalog is built exactly as {@code CREATE CATALOG ... WITH ('type'='iceberg', ...)} builds it
 * (same validation, same Hadoop configuration from {@code HADOOP_CONF_DIR}). Unknown keys are
 * errors that list the keys the example accepts.
 */
public final class ExampleArguments {

    /** The catalog type of Iceberg's JDBC catalog, a shortcut for its {@code catalog-impl}. */
    static final String TYPE_JDBC = "jdbc";

    private static final String JDBC_CATALOG = "org.apache.iceberg.jdbc.JdbcCatalog";
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");
    private static final String CATALOG_PREFIX = "catalog.";
    private static final List<String> COMMON_KEYS =
            List.of("catalog-type", "catalog-name", "warehouse", "uri", "table", "parallelism");

    private final String example;
    private final Map<String, String> values;

    private ExampleArguments(String example, Map<String, String> values) {
        this.example = example;
        this.values = values;
    }

    /**
     * Parses {@code --key value} pairs.
     *
     * @param example the example's name, for error messages
     * @param args the command line
     * @param exampleKeys the keys this example accepts besides the common ones
     * @throws IllegalArgumentException naming the argument when one is malformed, repeated or
     *     unknown
     */
    public static ExampleArguments parse(String example, String[] args, String... exampleKeys) {
        Set<String> allowed = new LinkedHashSet<>(COMMON_KEYS);
        Collections.addAll(allowed, exampleKeys);
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException(
                        String.format(
                                "%s: expected an argument '--key value' but got '%s'; keys: %s and"
                                        + " --catalog.<property>",
                                example, arg, render(allowed)));
            }
            String key = arg.substring(2);
            if (!allowed.contains(key)
                    && !(key.startsWith(CATALOG_PREFIX)
                            && key.length() > CATALOG_PREFIX.length())) {
                throw new IllegalArgumentException(
                        String.format(
                                "%s: unknown argument '--%s'; keys: %s and --catalog.<property>",
                                example, key, render(allowed)));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        String.format("%s: argument '--%s' needs a value", example, key));
            }
            if (values.put(key, args[i + 1]) != null) {
                throw new IllegalArgumentException(
                        String.format("%s: argument '--%s' is given twice", example, key));
            }
        }
        return new ExampleArguments(example, values);
    }

    /** The value of {@code --key}, if given. */
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /** The value of {@code --key}, or {@code defaultValue}. */
    public String get(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    /** The value of {@code --key} as a long, or {@code defaultValue}. */
    public long getLong(String key, long defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, value, "a whole number, e.g. 1000");
        }
    }

    /** The value of {@code --key} as a positive int, or {@code defaultValue}. */
    public int getPositiveInt(String key, int defaultValue) {
        long value = getLong(key, defaultValue);
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw invalid(key, values.get(key), "a whole number from 1 to " + Integer.MAX_VALUE);
        }
        return (int) value;
    }

    /** The value of {@code --key} as a duration ({@code 10s}, {@code 500ms}, {@code 1min}). */
    public Duration getDuration(String key, Duration defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw invalid(key, value, "a duration such as 10s, 500ms or 1min");
        }
    }

    /** The value of {@code --key} as {@code true} or {@code false}, or {@code defaultValue}. */
    public boolean getBoolean(String key, boolean defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw invalid(key, value, "true or false");
        }
    }

    /**
     * The value of {@code --key} as a file system URI: a value without a scheme is a local path,
     * made absolute here so that it means the same directory on the client and in the job.
     */
    public Optional<String> getLocation(String key) {
        return get(key).map(ExampleArguments::toUri);
    }

    /** The table of {@code --table <db>.<name>}, or {@code defaultTable}. */
    public TableIdentifier table(String defaultTable) {
        String value = get("table", defaultTable);
        TableIdentifier identifier = TableIdentifier.parse(value);
        if (!identifier.hasNamespace() || identifier.name().isBlank()) {
            throw invalid("table", value, "a table name with its database, e.g. db.events");
        }
        return identifier;
    }

    /** The parallelism of {@code --parallelism}, if given. */
    public OptionalInt parallelism() {
        return values.containsKey("parallelism")
                ? OptionalInt.of(getPositiveInt("parallelism", 1))
                : OptionalInt.empty();
    }

    /**
     * The streaming environment the example runs in: the one Flink provides (a MiniCluster in the
     * IDE and in tests, the cluster under {@code flink run}), with {@code --parallelism} applied.
     */
    public StreamExecutionEnvironment environment() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        parallelism().ifPresent(env::setParallelism);
        return env;
    }

    /**
     * The catalog options these arguments describe, as the keys of {@code CREATE CATALOG ... WITH
     * (...)}.
     */
    public Map<String, String> catalogOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        values.forEach(
                (key, value) -> {
                    if (key.startsWith(CATALOG_PREFIX)) {
                        options.put(key.substring(CATALOG_PREFIX.length()), value);
                    }
                });
        String type = get("catalog-type", "hadoop").trim().toLowerCase(Locale.ROOT);
        if (TYPE_JDBC.equals(type)) {
            options.put("catalog-impl", JDBC_CATALOG);
        } else if (values.containsKey("catalog-type") || !options.containsKey("catalog-impl")) {
            options.put("catalog-type", type);
        }
        get("uri").ifPresent(uri -> options.put("uri", uri));
        if (values.containsKey("warehouse")) {
            options.put("warehouse", toUri(values.get("warehouse")));
        } else if ("hadoop".equals(type) && !options.containsKey("catalog-impl")) {
            options.put("warehouse", toUri("warehouse"));
        }
        return options;
    }

    /** The loader of the catalog these arguments describe. */
    public CatalogLoader catalogLoader() {
        String name = get("catalog-name", "examples");
        CatalogSettings settings = CatalogSettings.parse(name, catalogOptions());
        return CatalogLoaders.of(settings, new Configuration());
    }

    /** The example's name, as given to {@link #parse}. */
    public String example() {
        return example;
    }

    private IllegalArgumentException invalid(String key, String value, String allowed) {
        return new IllegalArgumentException(
                String.format(
                        "%s: argument '--%s' must be %s, but was '%s'",
                        example, key, allowed, value));
    }

    private static String toUri(String location) {
        String trimmed = location.trim();
        if (trimmed.startsWith("file:") && !trimmed.startsWith("file:/")) {
            // file:./warehouse or file:warehouse: a relative local path.
            return Paths.get(trimmed.substring("file:".length()))
                    .toAbsolutePath()
                    .normalize()
                    .toUri()
                    .toString();
        }
        if (!SCHEME.matcher(trimmed).find()) {
            // No scheme (a Windows drive letter is no scheme either): a local path.
            return Paths.get(trimmed).toAbsolutePath().normalize().toUri().toString();
        }
        return trimmed;
    }

    private static String render(Set<String> keys) {
        List<String> rendered = new ArrayList<>();
        keys.forEach(key -> rendered.add("--" + key));
        return String.join(", ", rendered);
    }
}
