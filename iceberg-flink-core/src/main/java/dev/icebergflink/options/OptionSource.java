package dev.icebergflink.options;

import org.apache.flink.annotation.Internal;

/**
 * Where a connector option's value came from, in the order {@link OptionResolver} looks. Used to
 * tell users which setting to fix when a value is bad.
 */
@Internal
public enum OptionSource {
    /** A builder {@code set(..)} call, a SQL hint or a {@code WITH} option. */
    OPTION("option"),
    /** The job's or cluster's Flink configuration. */
    FLINK_CONFIGURATION("Flink configuration key"),
    /** An Iceberg table property. */
    TABLE_PROPERTY("table property"),
    /** The option's default. */
    DEFAULT("default of option");

    private final String description;

    OptionSource(String description) {
        this.description = description;
    }

    /**
     * A phrase naming the source and the key it was read under, e.g. {@code table property 'x'}.
     */
    public String describe(String key) {
        return description + " '" + key + "'";
    }
}
