package dev.icebergflink.table.options;

import dev.icebergflink.options.OptionValidation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The options of {@code CREATE TABLE t (...) WITH ('connector'='iceberg', ...)} tables (the options
 * of Iceberg's own connector tables), split into what each part of the connector needs.
 *
 * <p>It exists to give the connector-table keys one described {@link ConfigOption} each and to
 * apply one rule to every key:
 *
 * <ul>
 *   <li>{@code connector}, {@code catalog-name} (required), {@code catalog-database} (default: the
 *       Flink database of the table), {@code catalog-table} (default: the Flink table name) and
 *       {@code location} and {@code partitioning} (of a table created on first use) belong to the
 *       connector;
 *   <li>the catalog options of {@link FlinkCatalogOptions} ({@code catalog-type} defaults to {@code
 *       hive}, {@code catalog-impl}, {@code uri}, {@code warehouse}, ...) build the catalog;
 *   <li>read and write options ({@link SqlOptions#engineOptions()}) configure the source and sink;
 *   <li>any other key passes through to the Iceberg catalog (e.g. {@code io-impl}, {@code s3.*});
 *       keys that look like Iceberg table properties ({@code write.*}, {@code read.*}, {@code
 *       format-version}, ...) also become properties of a table created on first use.
 * </ul>
 *
 * Keys with a reserved prefix ({@code catalog-}, {@code cache-}, {@code cache.}) must be known, and
 * a key within two edits of a known key is taken for a misspelling; both fail with a {@link
 * ValidationException} that lists the valid keys. A pass-through key that looks like a misspelt
 * Iceberg table property ({@link TablePropertyNames}) fails too, naming the property.
 */
@PublicEvolving
public final class ConnectorTableOptions {

    public static final ConfigOption<String> CATALOG_NAME =
            ConfigOptions.key("catalog-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The name of the Iceberg catalog that holds the table (required). It"
                                    + " names the catalog for Iceberg (e.g. in metrics); the"
                                    + " catalog itself is built from the other catalog options.");

    public static final ConfigOption<String> CATALOG_DATABASE =
            ConfigOptions.key("catalog-database")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The Iceberg database (namespace) of the table; defaults to the Flink"
                                    + " database the table is created in. Created on first use"
                                    + " when missing.");

    public static final ConfigOption<String> CATALOG_TABLE =
            ConfigOptions.key("catalog-table")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The Iceberg table name; defaults to the Flink table name. The table"
                                    + " is created on first use from the declared columns,"
                                    + " PARTITIONED BY keys and table-property options when it"
                                    + " is missing.");

    public static final ConfigOption<String> LOCATION =
            ConfigOptions.key("location")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The location of the Iceberg table when it is created on first use;"
                                    + " by default the catalog chooses.");

    /**
     * {@code write.operation}: the write mode under the name Alibaba Cloud's managed Flink
     * connector for Iceberg uses, so that its {@code CREATE TABLE} statements port unchanged.
     * Parsed by the SQL sink ({@code upsert}, {@code insert}, {@code bulk_insert}); accepted in the
     * {@code WITH} clause of connector tables, in hints, and as a table property of catalog tables.
     */
    public static final ConfigOption<String> WRITE_OPERATION =
            ConfigOptions.key("write.operation")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The write mode by the name Alibaba Cloud's managed Iceberg connector"
                                    + " uses: 'upsert' sets 'upsert-enabled'='true' (rows replace"
                                    + " earlier rows of their PRIMARY KEY); 'insert' sets"
                                    + " 'upsert-enabled'='false' (inserts are appended, a changelog"
                                    + " query's deletes and updates are applied by key); 'bulk_insert'"
                                    + " appends the query's rows as they are, with no de-duplication"
                                    + " by key, and takes insert-only queries only. Unset, the mode"
                                    + " follows 'upsert-enabled' (unlike Alibaba's connector, whose"
                                    + " default is 'upsert'). Also read from the table property of"
                                    + " the same name; contradicting 'upsert-enabled' at the same"
                                    + " level is an error.");

    /** The keys of connector tables themselves. */
    public static final List<ConfigOption<?>> CONNECTOR_OPTIONS =
            List.of(
                    CATALOG_NAME,
                    CATALOG_DATABASE,
                    CATALOG_TABLE,
                    LOCATION,
                    PartitionTerms.PARTITIONING);

    /** Key prefixes of pass-through keys that are also stored as properties of created tables. */
    public static final List<String> TABLE_PROPERTY_PREFIXES =
            List.of(
                    "format-version",
                    "write.",
                    "read.",
                    "commit.",
                    "history.",
                    "gc.",
                    "schema.",
                    "snapshot.",
                    "metadata.");

    /**
     * The parsed options of one connector table.
     *
     * @param catalog the validated catalog options
     * @param database the Iceberg database
     * @param table the Iceberg table name
     * @param location the location for a table created on first use, or {@code null}
     * @param partitioning the {@code partitioning} of a table created on first use, or {@code null}
     * @param engineOptions the read and write options (and {@code scan.parallelism})
     * @param tableProperties the properties of a table created on first use
     */
    public record Parsed(
            CatalogSettings catalog,
            String database,
            String table,
            String location,
            String partitioning,
            Map<String, String> engineOptions,
            Map<String, String> tableProperties) {}

    private ConnectorTableOptions() {}

    /**
     * Validates and splits the options of the connector table {@code identifier}.
     *
     * @throws ValidationException naming unknown or misspelt keys (with the valid ones), a missing
     *     {@code catalog-name}, or an invalid catalog option
     */
    public static Parsed parse(ObjectIdentifier identifier, Map<String, String> options) {
        String tableName = identifier.asSummaryString();
        checkKeys(tableName, options.keySet());
        String catalogName = CatalogSettings.blankToNull(options.get(CATALOG_NAME.key()));
        if (catalogName == null) {
            throw new ValidationException(
                    String.format(
                            "Table %s: option '%s' is required for 'connector'='iceberg' tables;"
                                    + " it names the Iceberg catalog that holds the table",
                            tableName, CATALOG_NAME.key()));
        }
        Set<String> engineKeys = SqlOptions.engineKeys();
        Set<String> connectorKeys = keys(CONNECTOR_OPTIONS);
        Map<String, String> engine = new LinkedHashMap<>();
        Map<String, String> catalog = new LinkedHashMap<>();
        Map<String, String> properties = new LinkedHashMap<>();
        options.forEach(
                (key, value) -> {
                    if (key.equals(FactoryUtil.CONNECTOR.key()) || connectorKeys.contains(key)) {
                        return;
                    }
                    if (engineKeys.contains(key)) {
                        engine.put(key, value);
                        return;
                    }
                    catalog.put(key, value);
                    if (TABLE_PROPERTY_PREFIXES.stream().anyMatch(key::startsWith)) {
                        properties.put(key, value);
                    }
                });
        CatalogSettings settings = CatalogSettings.parse(catalogName, catalog);
        String database = CatalogSettings.blankToNull(options.get(CATALOG_DATABASE.key()));
        String table = CatalogSettings.blankToNull(options.get(CATALOG_TABLE.key()));
        return new Parsed(
                settings,
                database == null ? identifier.getDatabaseName() : database,
                table == null ? identifier.getObjectName() : table,
                CatalogSettings.blankToNull(options.get(LOCATION.key())),
                CatalogSettings.blankToNull(options.get(PartitionTerms.PARTITIONING.key())),
                engine,
                properties);
    }

    /** Every key a connector table knows (connector, catalog and per-query keys), sorted. */
    public static SortedSet<String> knownKeys() {
        SortedSet<String> known = new TreeSet<>();
        known.add(FactoryUtil.CONNECTOR.key());
        known.addAll(keys(CONNECTOR_OPTIONS));
        known.addAll(FlinkCatalogOptions.knownKeys());
        known.addAll(SqlOptions.engineKeys());
        return known;
    }

    private static void checkKeys(String tableName, Set<String> keys) {
        MetadataSyncOptions.reject("Table " + tableName, keys);
        SortedSet<String> known = knownKeys();
        List<String> problems = new ArrayList<>();
        List<String> passThrough = new ArrayList<>();
        for (String key : new TreeSet<>(keys)) {
            if (known.contains(key)) {
                continue;
            }
            String close = OptionValidation.likelyMisspellingOf(key, known, 2);
            if (close != null) {
                problems.add("'" + key + "' (did you mean '" + close + "'?)");
            } else if (FlinkCatalogOptions.hasReservedPrefix(key)) {
                problems.add("'" + key + "'");
            } else {
                passThrough.add(key);
            }
        }
        // Pass-through keys may become properties of a table created on first use (and are read
        // as table properties): a misspelt Iceberg property name would do nothing.
        if (problems.isEmpty()) {
            TablePropertyNames.check("Table " + tableName, passThrough);
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "Table %s: unknown option%s %s. Keys starting with %s, and keys that"
                                    + " look like misspellings of known keys, must be one of: %s."
                                    + " Any other key is passed to the Iceberg catalog as a"
                                    + " property.",
                            tableName,
                            problems.size() == 1 ? "" : "s",
                            String.join(", ", problems),
                            FlinkCatalogOptions.RESERVED_PREFIXES,
                            String.join(", ", known)));
        }
    }

    private static Set<String> keys(List<ConfigOption<?>> options) {
        Set<String> keys = new TreeSet<>();
        for (ConfigOption<?> option : options) {
            keys.add(option.key());
        }
        return keys;
    }
}
