package dev.icebergflink.table.sink;

import dev.icebergflink.sink.WriteModeRules;
import dev.icebergflink.sink.WriteRuleViolation;
import org.apache.flink.table.api.ValidationException;

/**
 * Words a broken {@link WriteModeRules sink rule} for SQL users.
 *
 * <p>It exists so that SQL checks exactly what the DataStream sink checks, while its messages speak
 * SQL: the {@code PRIMARY KEY} instead of equality field columns, {@code INSERT OVERWRITE} instead
 * of {@code overwrite(true)}, {@code ALTER TABLE} for table properties, and where upsert mode was
 * switched on (hint, option or table property).
 */
final class SqlWriteRules {

    private SqlWriteRules() {}

    /**
     * The SQL form of {@code violation}.
     *
     * @param tableName the Flink table, for messages
     * @param upsertEnabledBy where upsert mode was set, e.g. {@code option 'upsert-enabled'}
     * @param overwriteBy what asked for overwrite, e.g. {@code INSERT OVERWRITE}
     */
    static ValidationException toValidation(
            String tableName,
            WriteRuleViolation violation,
            String upsertEnabledBy,
            String overwriteBy) {
        switch (violation.rule()) {
            case UPSERT_NEEDS_EQUALITY_FIELDS:
                return new ValidationException(
                        String.format(
                                "Cannot write to table %s in upsert mode (enabled by %s): upsert"
                                        + " replaces rows by their primary key, but the table has"
                                        + " no PRIMARY KEY; declare PRIMARY KEY (...) NOT"
                                        + " ENFORCED, or set 'upsert-enabled'='false'",
                                tableName, upsertEnabledBy),
                        violation);
            case UPSERT_NEEDS_FORMAT_V2:
                return new ValidationException(
                        String.format(
                                "Cannot write to table %s in upsert mode (enabled by %s): upsert"
                                        + " writes delete files, which need Iceberg format"
                                        + " version 2 or later, but the table is format v%d;"
                                        + " upgrade it with ALTER TABLE ... SET"
                                        + " ('format-version'='2'), or set"
                                        + " 'upsert-enabled'='false'",
                                tableName, upsertEnabledBy, violation.formatVersion()),
                        violation);
            case UPSERT_PARTITION_OUTSIDE_KEY:
                return new ValidationException(
                        String.format(
                                "Cannot write to table %s in upsert mode (enabled by %s): the"
                                        + " table is partitioned by column(s) %s, which are not"
                                        + " in the PRIMARY KEY %s; in upsert mode every"
                                        + " partition source column must be a primary key"
                                        + " column",
                                tableName,
                                upsertEnabledBy,
                                violation.columnsOutsideKey(),
                                violation.keyColumns()),
                        violation);
            case OVERWRITE_WITH_UPSERT:
                return new ValidationException(
                        String.format(
                                "Table %s: %s cannot be combined with upsert mode (enabled by"
                                        + " %s): overwrite replaces partitions, upsert replaces"
                                        + " rows by key; set 'upsert-enabled'='false' for this"
                                        + " statement",
                                tableName, overwriteBy, upsertEnabledBy),
                        violation);
            default:
                return new ValidationException(
                        String.format(
                                "Cannot write to table %s: %s", tableName, violation.getMessage()),
                        violation);
        }
    }
}
