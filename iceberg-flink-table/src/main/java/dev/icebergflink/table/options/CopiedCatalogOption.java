package dev.icebergflink.table.options;

import com.fasterxml.jackson.databind.JsonNode;
import dev.icebergflink.CatalogLoader;
import dev.icebergflink.util.SecretMasking;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.iceberg.util.JsonUtil;

/**
 * The option {@code 'src-catalog'} that an Iceberg catalog reports with each of its tables, next to
 * {@code 'connector'='iceberg'}, so that {@code CREATE TABLE t (WATERMARK ...) LIKE
 * iceberg_catalog.db.t} in another catalog gives a working connector table without the user typing
 * the catalog's connection options: Flink's {@code LIKE} copies a table's options and nothing else,
 * and a table outside the Iceberg catalog needs {@code 'connector'} and where its table lives.
 *
 * <p>The value is JSON: the Flink catalog's name, the table's database and name, the options that
 * rebuild the catalog connection, with every secret value masked ({@link SecretMasking}; {@code
 * SHOW CREATE TABLE} prints it), and the id of the catalog instance that reported it. While that
 * catalog is open in this JVM, a connector table with the option reads and writes through the
 * catalog's own loader ({@link #register}), secrets and custom loaders included; elsewhere (another
 * session, a table stored in a persistent catalog) the options rebuild the connection, and a masked
 * secret must be given as a table option of its own.
 *
 * <p>Inside an Iceberg catalog the two options are not table properties: {@code CREATE TABLE ...
 * LIKE} into an Iceberg catalog and {@code ALTER TABLE} drop them ({@link #isReported}).
 */
@Internal
public final class CopiedCatalogOption {

    /** The option key, the one Iceberg's connector reserves for the same purpose. */
    public static final String KEY = "src-catalog";

    /** The {@code connector} value the catalog reports. */
    public static final String CONNECTOR = "iceberg";

    private static final String INSTANCE = "instance";
    private static final String OPTIONS = "options";

    /** The loaders of the Iceberg catalogs open in this JVM, by instance id. */
    private static final Map<String, CatalogLoader> OPEN = new ConcurrentHashMap<>();

    private CopiedCatalogOption() {}

    /** A new, unguessable id for one open catalog. */
    public static String newInstanceId() {
        return UUID.randomUUID().toString();
    }

    /** Makes the catalog {@code instanceId} usable by connector tables that name it. */
    public static void register(String instanceId, CatalogLoader loader) {
        OPEN.put(instanceId, Objects.requireNonNull(loader, "loader"));
    }

    /** Forgets the catalog {@code instanceId} (it closed). */
    public static void unregister(String instanceId) {
        OPEN.remove(instanceId);
    }

    /**
     * The options an Iceberg catalog reports with a table: {@code 'connector'='iceberg'} and this
     * option.
     */
    public static Map<String, String> reported(
            String instanceId, CatalogSettings catalog, String database, String table) {
        Map<String, String> connection = new LinkedHashMap<>();
        connection.put(ConnectorTableOptions.CATALOG_NAME.key(), catalog.catalogName());
        connection.put(ConnectorTableOptions.CATALOG_DATABASE.key(), database);
        connection.put(ConnectorTableOptions.CATALOG_TABLE.key(), table);
        connection.putAll(SecretMasking.maskProperties(catalog.connectionOptions()));
        String json =
                JsonUtil.generate(
                        generator -> {
                            generator.writeStartObject();
                            generator.writeStringField(INSTANCE, instanceId);
                            generator.writeObjectFieldStart(OPTIONS);
                            for (Map.Entry<String, String> option : connection.entrySet()) {
                                generator.writeStringField(option.getKey(), option.getValue());
                            }
                            generator.writeEndObject();
                            generator.writeEndObject();
                        },
                        false);
        Map<String, String> reported = new LinkedHashMap<>();
        reported.put(FactoryUtil.CONNECTOR.key(), CONNECTOR);
        reported.put(KEY, json);
        return reported;
    }

    /**
     * Whether {@code key} = {@code value} is one of the options an Iceberg catalog reports with its
     * tables rather than a table property.
     */
    public static boolean isReported(String key, String value) {
        return KEY.equals(key)
                || (FactoryUtil.CONNECTOR.key().equals(key) && CONNECTOR.equals(value));
    }

    /** {@code options} without the reported ones. */
    public static Map<String, String> withoutReported(Map<String, String> options) {
        Map<String, String> rest = new LinkedHashMap<>();
        options.forEach(
                (key, value) -> {
                    if (!isReported(key, value)) {
                        rest.put(key, value);
                    }
                });
        return rest;
    }

    /**
     * The options of a connector table with {@code src-catalog} spelt out.
     *
     * @param options the connector table's options; those without the option pass unchanged
     * @param liveLoader the loader of the reporting catalog when it is open in this JVM, else
     *     {@code null}
     * @param copied the keys that came from the option (not typed by the user)
     */
    public record Expanded(
            Map<String, String> options, CatalogLoader liveLoader, List<String> copied) {}

    /**
     * Spells out {@code src-catalog} into connector-table options: the catalog's name, database,
     * table and connection options, overridden by the table's own options (so a secret the option
     * masks can be given as an option of the table).
     *
     * @throws ValidationException when the value is no such JSON, or when the reporting catalog is
     *     not open here and a masked secret is not given
     */
    public static Expanded expand(String tableName, Map<String, String> options) {
        String value = options.get(KEY);
        if (value == null) {
            return new Expanded(options, null, List.of());
        }
        String instance;
        Map<String, String> connection;
        try {
            JsonNode json = JsonUtil.mapper().readTree(value);
            instance = JsonUtil.getStringOrNull(INSTANCE, json);
            connection = JsonUtil.getStringMap(OPTIONS, json);
        } catch (Exception e) {
            throw new ValidationException(
                    String.format(
                            "Table %s: option '%s' is not what an Iceberg catalog reports (JSON"
                                    + " with the catalog's options): %s. Remove it and name the"
                                    + " catalog with 'catalog-name' and its options instead.",
                            tableName, KEY, e.getMessage()),
                    e);
        }
        Map<String, String> expanded = new LinkedHashMap<>(connection);
        List<String> copied = new ArrayList<>();
        for (String key : connection.keySet()) {
            if (!options.containsKey(key)) {
                copied.add(key);
            }
        }
        options.forEach(
                (key, option) -> {
                    if (!KEY.equals(key)) {
                        expanded.put(key, option);
                    }
                });
        CatalogLoader live = instance == null ? null : OPEN.get(instance);
        if (live == null) {
            // a masked secret, or a URI with a masked password, that the table does not give
            List<String> missing = new ArrayList<>();
            for (String key : copied) {
                String option = expanded.get(key);
                if (option != null && option.contains(SecretMasking.MASK)) {
                    missing.add(key);
                }
            }
            if (!missing.isEmpty()) {
                throw new ValidationException(
                        String.format(
                                "Table %s: the Iceberg catalog '%s' it was copied from (CREATE"
                                        + " TABLE ... LIKE) is not open in this session, and its"
                                        + " secret options %s are not copied. Add them to the"
                                        + " table's options (ALTER TABLE %s SET (%s)), or copy the"
                                        + " table again while the catalog is open.",
                                tableName,
                                connection.get(ConnectorTableOptions.CATALOG_NAME.key()),
                                missing,
                                tableName,
                                String.join(
                                        ", ",
                                        missing.stream()
                                                .map(key -> "'" + key + "'='...'")
                                                .toList())));
            }
        }
        return new Expanded(expanded, live, List.copyOf(copied));
    }
}
