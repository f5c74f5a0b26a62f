package dev.icebergflink.source;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Which changes of a table a read emits: the values of the read option {@code changelog-mode}.
 *
 * <p>It exists because an Iceberg table changes by more than appends: upserts, deletes and
 * overwrites remove rows too. An insert-only read emits added rows and refuses (or, on request,
 * skips) snapshots that remove rows; a changelog read emits every change with its Flink row kind.
 */
@PublicEvolving
public enum ChangelogReadMode {
    /**
     * The default: every emitted row is an insert. A streaming read follows appends and fails on
     * {@code overwrite} and {@code delete} snapshots unless told to skip them.
     */
    INSERT_ONLY("insert-only"),

    /**
     * Every change, in commit order: added rows as {@code +I}, removed rows as {@code -D} with the
     * whole row, and on a table with identifier fields a key that a snapshot removes and adds again
     * as {@code -U} (the old row) and {@code +U} (the new row). {@code replace} snapshots
     * (compaction) change no rows and emit nothing. Read by one reader, in order.
     */
    ALL("all");

    private final String optionValue;

    ChangelogReadMode(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The value of the read option {@code changelog-mode} that chooses this mode. */
    public String optionValue() {
        return optionValue;
    }

    /**
     * The mode an option value names, ignoring case.
     *
     * @throws IllegalArgumentException naming the option and the allowed values otherwise
     */
    public static ChangelogReadMode fromOptionValue(String value) {
        for (ChangelogReadMode mode : values()) {
            if (mode.optionValue.equalsIgnoreCase(value.trim())) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                String.format(
                        "Option '%s' = '%s' is not a changelog mode; use one of %s",
                        FlinkReadOptions.CHANGELOG_MODE.key(),
                        value,
                        Arrays.stream(values())
                                .map(mode -> "'" + mode.optionValue + "'")
                                .collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return optionValue.toLowerCase(Locale.ROOT);
    }
}
