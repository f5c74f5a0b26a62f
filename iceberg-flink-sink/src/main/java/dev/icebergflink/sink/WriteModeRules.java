package dev.icebergflink.sink;

import dev.icebergflink.sink.WriteRuleViolation.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/**
 * The rules that say which write modes go together and what upsert needs from the table, stated
 * once for every front end of the sink.
 *
 * <p>It exists so that the DataStream builder ({@link IcebergSink.Builder}) and the SQL sink check
 * exactly the same things: a broken rule is a {@link WriteRuleViolation}, whose message is in the
 * builder's terms (methods and option keys) and whose {@link WriteRuleViolation#rule()} lets the
 * SQL sink say the same in SQL terms.
 */
@Internal
public final class WriteModeRules {

    private WriteModeRules() {}

    /**
     * Checks that the requested modes go together: overwrite and upsert exclude each other, as do
     * insert-only input and upsert; {@code upsert-unique-keys} needs upsert; a static partition
     * needs overwrite.
     *
     * @throws WriteRuleViolation naming the options at fault
     */
    public static void checkModes(
            boolean overwrite,
            boolean upsert,
            boolean upsertUniqueKeys,
            boolean insertOnly,
            boolean staticPartition) {
        if (overwrite && upsert) {
            throw new WriteRuleViolation(
                    Rule.OVERWRITE_WITH_UPSERT,
                    "Options 'overwrite-enabled' and 'upsert-enabled' cannot both be true:"
                            + " overwrite replaces partitions, upsert replaces rows by key");
        }
        if (insertOnly && upsert) {
            throw new WriteRuleViolation(
                    Rule.INSERT_ONLY_WITH_UPSERT,
                    "insertOnly(true) cannot be combined with option 'upsert-enabled' = true:"
                            + " upsert input replaces rows by key, insert-only input only adds"
                            + " rows; drop one of them");
        }
        if (upsertUniqueKeys && !upsert) {
            throw new WriteRuleViolation(
                    Rule.UNIQUE_KEYS_WITHOUT_UPSERT,
                    "Option 'upsert-unique-keys' = true applies to upsert mode only: set"
                            + " 'upsert-enabled' = true (upsert(true)) or drop it");
        }
        if (staticPartition && !overwrite) {
            throw new WriteRuleViolation(
                    Rule.STATIC_PARTITION_WITHOUT_OVERWRITE,
                    "overwritePartition(...) needs option 'overwrite-enabled' = true");
        }
    }

    /**
     * Checks what upsert needs from the table: format v2 or later (it writes delete files),
     * equality fields (they are the key rows are replaced by), and every partition source column
     * among them (so that all changes of a key stay in one partition).
     *
     * @param equalityIds the field ids of the equality fields (empty for none)
     * @throws WriteRuleViolation naming the format version or the columns at fault
     */
    public static void checkUpsert(
            int formatVersion, Schema schema, PartitionSpec spec, List<Integer> equalityIds) {
        if (formatVersion < 2) {
            throw new WriteRuleViolation(
                    Rule.UPSERT_NEEDS_FORMAT_V2,
                    "Option 'upsert-enabled' needs a format v2 or later table, but the table is"
                            + " format v"
                            + formatVersion
                            + " (upgrade it with the table property 'format-version'='2')",
                    formatVersion,
                    List.of(),
                    List.of());
        }
        if (equalityIds.isEmpty()) {
            throw new WriteRuleViolation(
                    Rule.UPSERT_NEEDS_EQUALITY_FIELDS,
                    "Option 'upsert-enabled' needs equality fields: set"
                            + " equalityFieldColumns(...) (or a PRIMARY KEY in SQL), or give the"
                            + " table identifier fields");
        }
        List<String> keyColumns =
                equalityIds.stream().map(schema::findColumnName).collect(Collectors.toList());
        List<String> outside = new ArrayList<>();
        PartitionField first = null;
        for (PartitionField field : spec.fields()) {
            String source = schema.findColumnName(field.sourceId());
            if (!equalityIds.contains(field.sourceId()) && !outside.contains(source)) {
                outside.add(source);
                first = first == null ? field : first;
            }
        }
        if (first != null) {
            throw new WriteRuleViolation(
                    Rule.UPSERT_PARTITION_OUTSIDE_KEY,
                    String.format(
                            "In upsert mode every partition source column must be an equality"
                                    + " field, but partition field '%s' is derived from column"
                                    + " '%s', which is not among the equality fields %s",
                            first.name(), outside.get(0), keyColumns),
                    formatVersion,
                    outside,
                    keyColumns);
        }
    }
}
