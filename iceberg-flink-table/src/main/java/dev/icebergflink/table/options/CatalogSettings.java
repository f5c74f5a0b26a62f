package dev.icebergflink.table.options;

import dev.icebergflink.util.SecretMasking;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.catalog.Namespace;

/**
 * The validated options of one {@code CREATE CATALOG ... WITH ('type'='iceberg', ...)}: which
 * Iceberg catalog to build, how to cache it, where Flink's databases live, and the properties
 * passed through to Iceberg.
 *
 * <p>It exists to keep option parsing and its error messages out of the factory and the catalog.
 * {@link #parse} fails with a {@link ValidationException} that names the option and shows what is
 * allowed; secret values never appear in messages or in {@link #toString()}.
 *
 * @param catalogName the Flink catalog name
 * @param catalogType {@code hive}, {@code hadoop} or {@code rest}; {@code null} with an impl
 * @param catalogImpl a custom Iceberg catalog class, or {@code null}
 * @param cacheEnabled whether tables are cached
 * @param cacheCaseSensitive whether the cache matches names case-sensitively
 * @param cacheExpirationMs the cache expiration; negative never expires
 * @param defaultDatabase the Flink default database
 * @param baseNamespace the namespace every database lives under (may be empty)
 * @param hiveConfDir the {@code hive-conf-dir}, or {@code null}
 * @param hadoopConfDir the {@code hadoop-conf-dir}, or {@code null}
 * @param catalogProperties the properties for the Iceberg catalog (pass-through keys, {@code uri},
 *     {@code clients} and {@code warehouse})
 */
@Internal
public record CatalogSettings(
        String catalogName,
        String catalogType,
        String catalogImpl,
        boolean cacheEnabled,
        boolean cacheCaseSensitive,
        long cacheExpirationMs,
        String defaultDatabase,
        Namespace baseNamespace,
        String hiveConfDir,
        String hadoopConfDir,
        Map<String, String> catalogProperties) {

    /**
     * Keys shorter than this are not checked for misspellings (too many legitimate near-misses).
     */
    private static final int MIN_MISSPELLING_CHECK_LENGTH = 9;

    public CatalogSettings {
        catalogProperties = Collections.unmodifiableMap(new LinkedHashMap<>(catalogProperties));
    }

    /**
     * Validates and parses the options of a catalog.
     *
     * @throws ValidationException naming the wrong option and the allowed values or keys
     */
    public static CatalogSettings parse(String catalogName, Map<String, String> options) {
        checkKeys(catalogName, options.keySet());
        Configuration config = Configuration.fromMap(options);

        Integer propertyVersion =
                get(catalogName, config, options, FlinkCatalogOptions.PROPERTY_VERSION);
        if (propertyVersion != null && propertyVersion != 1) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': unsupported 'property-version'='%s'; the only property"
                                    + " version is 1",
                            catalogName, propertyVersion));
        }

        String type = blankToNull(options.get(FlinkCatalogOptions.CATALOG_TYPE.key()));
        String impl = blankToNull(options.get(FlinkCatalogOptions.CATALOG_IMPL.key()));
        if (type != null && impl != null) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': set either 'catalog-type' (one of %s) or 'catalog-impl'"
                                    + " (a custom Iceberg Catalog class), not both; got"
                                    + " 'catalog-type'='%s' and 'catalog-impl'='%s'",
                            catalogName, FlinkCatalogOptions.CATALOG_TYPES, type, impl));
        }
        if (impl == null) {
            type = type == null ? FlinkCatalogOptions.TYPE_HIVE : type.toLowerCase(Locale.ROOT);
            if (!FlinkCatalogOptions.CATALOG_TYPES.contains(type)) {
                throw new ValidationException(
                        String.format(
                                "Catalog '%s': unknown 'catalog-type'='%s'. Allowed values are %s;"
                                        + " for any other Iceberg catalog (JDBC, Glue, Nessie, ...)"
                                        + " set 'catalog-impl' to its class name instead, e.g."
                                        + " 'catalog-impl'='org.apache.iceberg.jdbc.JdbcCatalog'",
                                catalogName,
                                options.get(FlinkCatalogOptions.CATALOG_TYPE.key()),
                                FlinkCatalogOptions.CATALOG_TYPES));
            }
        }

        boolean cacheEnabled = get(catalogName, config, options, FlinkCatalogOptions.CACHE_ENABLED);
        boolean caseSensitive =
                get(catalogName, config, options, FlinkCatalogOptions.CACHE_CASE_SENSITIVE);
        long expiration =
                get(catalogName, config, options, FlinkCatalogOptions.CACHE_EXPIRATION_INTERVAL_MS);
        get(catalogName, config, options, FlinkCatalogOptions.CLIENTS);

        String defaultDatabase =
                get(catalogName, config, options, FlinkCatalogOptions.DEFAULT_DATABASE);
        if (defaultDatabase == null || defaultDatabase.isBlank()) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': 'default-database' must not be empty", catalogName));
        }
        Namespace base =
                parseNamespace(catalogName, options.get(FlinkCatalogOptions.BASE_NAMESPACE.key()));

        Map<String, String> catalogProperties = new HashMap<>();
        options.forEach(
                (key, value) -> {
                    if (!FlinkCatalogOptions.FLINK_ONLY_KEYS.contains(key)) {
                        catalogProperties.put(key, value);
                    }
                });
        String credentialSecret = options.get(FlinkCatalogOptions.CREDENTIAL_SECRET.key());
        if (credentialSecret != null) {
            String credential = options.get(FlinkCatalogOptions.ICEBERG_CREDENTIAL);
            if (credential != null && !credential.equals(credentialSecret)) {
                throw new ValidationException(
                        String.format(
                                "Catalog '%s': '%s' and '%s' are both set, to different values"
                                        + " (not shown); they are the same OAuth2 credential."
                                        + " Set only '%s', whose value Flink hides in its own"
                                        + " messages.",
                                catalogName,
                                FlinkCatalogOptions.CREDENTIAL_SECRET.key(),
                                FlinkCatalogOptions.ICEBERG_CREDENTIAL,
                                FlinkCatalogOptions.CREDENTIAL_SECRET.key()));
            }
            catalogProperties.put(FlinkCatalogOptions.ICEBERG_CREDENTIAL, credentialSecret);
        }
        return new CatalogSettings(
                catalogName,
                impl == null ? type : null,
                impl,
                cacheEnabled && expiration != 0,
                caseSensitive,
                expiration,
                defaultDatabase,
                base,
                blankToNull(options.get(FlinkCatalogOptions.HIVE_CONF_DIR.key())),
                blankToNull(options.get(FlinkCatalogOptions.HADOOP_CONF_DIR.key())),
                catalogProperties);
    }

    /**
     * The options that rebuild this catalog's connection in a connector table ({@code
     * 'connector'='iceberg'}): type or implementation, base namespace, configuration directories
     * and the Iceberg catalog properties, secrets included. Caching and the default database are
     * the Flink catalog's own and not part of it.
     */
    public Map<String, String> connectionOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        if (catalogImpl != null) {
            options.put(FlinkCatalogOptions.CATALOG_IMPL.key(), catalogImpl);
        } else {
            options.put(FlinkCatalogOptions.CATALOG_TYPE.key(), catalogType);
        }
        if (!baseNamespace.isEmpty()) {
            options.put(
                    FlinkCatalogOptions.BASE_NAMESPACE.key(),
                    String.join(".", baseNamespace.levels()));
        }
        if (hiveConfDir != null) {
            options.put(FlinkCatalogOptions.HIVE_CONF_DIR.key(), hiveConfDir);
        }
        if (hadoopConfDir != null) {
            options.put(FlinkCatalogOptions.HADOOP_CONF_DIR.key(), hadoopConfDir);
        }
        options.putAll(catalogProperties);
        return options;
    }

    /** Settings without secret values, for logs and messages. */
    @Override
    public String toString() {
        return "CatalogSettings{name="
                + catalogName
                + (catalogImpl == null ? ", type=" + catalogType : ", impl=" + catalogImpl)
                + ", cacheEnabled="
                + cacheEnabled
                + ", cacheExpirationMs="
                + cacheExpirationMs
                + ", defaultDatabase="
                + defaultDatabase
                + ", baseNamespace="
                + baseNamespace
                + ", hiveConfDir="
                + hiveConfDir
                + ", hadoopConfDir="
                + hadoopConfDir
                + ", catalogProperties="
                + SecretMasking.maskProperties(catalogProperties)
                + "}";
    }

    private static void checkKeys(String catalogName, Set<String> keys) {
        Set<String> known = FlinkCatalogOptions.knownKeys();
        SortedSet<String> unknown = new TreeSet<>();
        for (String key : keys) {
            if (known.contains(key) || FlinkCatalogOptions.FLINK_ONLY_KEYS.contains(key)) {
                continue;
            }
            if (FlinkCatalogOptions.hasReservedPrefix(key) || closestKnownKey(key, known) != null) {
                unknown.add(key);
            }
        }
        if (unknown.isEmpty()) {
            return;
        }
        List<String> described = new ArrayList<>();
        for (String key : unknown) {
            String close = closestKnownKey(key, known);
            described.add(
                    "'" + key + "'" + (close == null ? "" : " (did you mean '" + close + "'?)"));
        }
        throw new ValidationException(
                String.format(
                        "Catalog '%s': unknown option%s %s. Keys starting with %s, and keys that"
                                + " look like misspellings of the catalog's own keys, must be"
                                + " one of: type, %s. Any other key is passed to the Iceberg"
                                + " catalog as a property.",
                        catalogName,
                        unknown.size() == 1 ? "" : "s",
                        String.join(", ", described),
                        FlinkCatalogOptions.RESERVED_PREFIXES,
                        String.join(", ", known)));
    }

    /** The known key within two edits of {@code key}, for keys long enough to judge; or null. */
    private static String closestKnownKey(String key, Set<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            if (candidate.length() < MIN_MISSPELLING_CHECK_LENGTH) {
                continue;
            }
            int distance = editDistance(key.toLowerCase(Locale.ROOT), candidate);
            if (distance <= 2 && distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static <T> T get(
            String catalogName,
            Configuration config,
            Map<String, String> raw,
            ConfigOption<T> option) {
        try {
            return config.get(option);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': invalid value '%s' for option '%s': expected %s",
                            catalogName,
                            SecretMasking.mask(option.key(), raw.get(option.key())),
                            option.key(),
                            expectation(option)),
                    e);
        }
    }

    private static String expectation(ConfigOption<?> option) {
        if (option == FlinkCatalogOptions.CACHE_EXPIRATION_INTERVAL_MS) {
            return "a whole number of milliseconds (negative: never expire, 0: no cache)";
        } else if (option == FlinkCatalogOptions.CLIENTS
                || option == FlinkCatalogOptions.PROPERTY_VERSION) {
            return "an integer";
        } else {
            return "true or false";
        }
    }

    private static Namespace parseNamespace(String catalogName, String value) {
        if (value == null || value.isBlank()) {
            return Namespace.empty();
        }
        String[] levels = value.split("\\.", -1);
        if (Arrays.stream(levels).anyMatch(String::isBlank)) {
            throw new ValidationException(
                    String.format(
                            "Catalog '%s': 'base-namespace'='%s' has an empty level; write the"
                                    + " levels separated by single dots, e.g. 'lake.prod'",
                            catalogName, value));
        }
        return Namespace.of(levels);
    }

    /** The trimmed value, or {@code null} for a missing or blank one. */
    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
