package dev.icebergflink.sink;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A sink setting that breaks one of the {@link WriteModeRules}, e.g. upsert without equality
 * fields.
 *
 * <p>It exists so that the rule is stated once while each front end words it for its users: the
 * DataStream builder throws it as it is (an {@link IllegalArgumentException} naming builder methods
 * and option keys), the SQL sink reads {@link #rule()} and the columns and rewords it in SQL terms
 * ({@code PRIMARY KEY}, {@code INSERT OVERWRITE}).
 */
@Internal
public final class WriteRuleViolation extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The rules of {@link WriteModeRules}. */
    public enum Rule {
        /** Overwrite and upsert were both asked for. */
        OVERWRITE_WITH_UPSERT,
        /** Insert-only input was declared together with upsert mode. */
        INSERT_ONLY_WITH_UPSERT,
        /** {@code upsert-unique-keys} was set without upsert mode. */
        UNIQUE_KEYS_WITHOUT_UPSERT,
        /** A static partition was given without overwrite mode. */
        STATIC_PARTITION_WITHOUT_OVERWRITE,
        /** Upsert into a format v1 table. */
        UPSERT_NEEDS_FORMAT_V2,
        /** Upsert with neither equality field columns nor table identifier fields. */
        UPSERT_NEEDS_EQUALITY_FIELDS,
        /** Upsert into a table partitioned by a column outside the equality fields. */
        UPSERT_PARTITION_OUTSIDE_KEY
    }

    private final Rule rule;
    private final int formatVersion;
    private final List<String> columnsOutsideKey;
    private final List<String> keyColumns;

    WriteRuleViolation(
            Rule rule,
            String message,
            int formatVersion,
            List<String> columnsOutsideKey,
            List<String> keyColumns) {
        super(message);
        this.rule = rule;
        this.formatVersion = formatVersion;
        this.columnsOutsideKey = List.copyOf(columnsOutsideKey);
        this.keyColumns = List.copyOf(keyColumns);
    }

    WriteRuleViolation(Rule rule, String message) {
        this(rule, message, 0, List.of(), List.of());
    }

    /** The rule that was broken. */
    public Rule rule() {
        return rule;
    }

    /** The table's format version ({@link Rule#UPSERT_NEEDS_FORMAT_V2}), else 0. */
    public int formatVersion() {
        return formatVersion;
    }

    /**
     * The partition source columns that are not equality fields ({@link
     * Rule#UPSERT_PARTITION_OUTSIDE_KEY}), each once, in spec order; else empty.
     */
    public List<String> columnsOutsideKey() {
        return columnsOutsideKey;
    }

    /** The equality field columns ({@link Rule#UPSERT_PARTITION_OUTSIDE_KEY}), else empty. */
    public List<String> keyColumns() {
        return keyColumns;
    }
}
