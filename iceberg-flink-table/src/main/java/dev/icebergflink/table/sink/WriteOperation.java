package dev.icebergflink.table.sink;

import dev.icebergflink.table.options.ConnectorTableOptions;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;

/**
 * The values of {@code write.operation}, the write mode by the name Alibaba Cloud's managed Flink
 * connector for Iceberg uses, and the setting of this sink each one stands for.
 *
 * <p>It exists so that statements written for that connector keep their meaning here: {@code
 * upsert} and {@code insert} are {@code upsert-enabled} on and off, and {@code bulk_insert} is the
 * sink's plain append path (every row written as it arrives, no de-duplication by key), which only
 * insert-only queries can take.
 */
@Internal
enum WriteOperation {
    UPSERT("upsert"),
    INSERT("insert"),
    BULK_INSERT("bulk_insert");

    static final String KEY = ConnectorTableOptions.WRITE_OPERATION.key();

    private final String value;

    WriteOperation(String value) {
        this.value = value;
    }

    /** The value as written in SQL. */
    String value() {
        return value;
    }

    /** The value of {@code upsert-enabled} this operation stands for. */
    boolean upsert() {
        return this == UPSERT;
    }

    /**
     * The operation {@code settings} name, or {@code null} when they name none.
     *
     * @param tableName the Flink table, for messages
     * @param level where the settings come from, e.g. {@code "option"} or {@code "table property"}
     * @throws ValidationException naming the value and the allowed ones
     */
    static WriteOperation of(String tableName, String level, Map<String, String> settings) {
        String value = settings.get(KEY);
        if (value == null) {
            return null;
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        for (WriteOperation operation : values()) {
            if (operation.value.equals(normalized)) {
                return operation;
            }
        }
        throw new ValidationException(
                String.format(
                        "Table %s: invalid value '%s' for %s '%s'; allowed values are %s",
                        tableName,
                        value,
                        level,
                        KEY,
                        Arrays.stream(values())
                                .map(operation -> "'" + operation.value + "'")
                                .collect(Collectors.joining(", "))));
    }

    /**
     * Puts the {@code upsert-enabled} value this operation stands for into {@code settings} under
     * {@code upsertKey}.
     *
     * @throws ValidationException when {@code settings} already hold a different value there
     */
    void applyTo(Map<String, String> settings, String upsertKey, String tableName, String level) {
        String wanted = String.valueOf(upsert());
        String given = settings.get(upsertKey);
        if (given != null && !given.trim().equalsIgnoreCase(wanted)) {
            throw new ValidationException(
                    String.format(
                            "Table %s: %s '%s'='%s' and %s '%s'='%s' disagree; both set the write"
                                    + " mode ('%s' means '%s'='%s'), set only one of them",
                            tableName, level, KEY, value, level, upsertKey, given, value, upsertKey,
                            wanted));
        }
        settings.put(upsertKey, wanted);
    }
}
