package dev.icebergflink.options;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.description.HtmlFormatter;

/**
 * Describes one connector option and every place its value may come from.
 *
 * <p>It exists so that the source, the sink and SQL resolve options the same way (the precedence is
 * described in {@link OptionResolver}): an option has a Flink {@link ConfigOption} (its key is the
 * name used in builder {@code set(..)} calls, SQL hints and {@code WITH} clauses; it carries the
 * description and the default), an optional Flink configuration key (for example {@code
 * connector.iceberg.split-size}; options without one are "option-only") and an optional Iceberg
 * table property (for example {@code read.split.target-size}). {@link OptionResolver} looks in that
 * order: explicit, Flink configuration, table property, default. All sources are parsed with the
 * {@link ConfigOption}'s type, by Flink's own parsers.
 *
 * <p>Instances are immutable. The {@code valueType} given at creation is the Java class of the
 * option's values ({@code Integer.class}, {@code Duration.class}, an enum class, ...); it is used
 * to explain what a bad value should look like, and for enums to list the allowed values.
 *
 * @param <T> the type of the option's values
 */
@Internal
public final class ConnectorOption<T> {

    private final ConfigOption<T> option;
    private final Class<T> valueType;
    private final String flinkConfigKey;
    private final String tableProperty;

    private ConnectorOption(
            ConfigOption<T> option,
            Class<T> valueType,
            String flinkConfigKey,
            String tableProperty) {
        this.option = option;
        this.valueType = valueType;
        this.flinkConfigKey = flinkConfigKey;
        this.tableProperty = tableProperty;
    }

    /**
     * Starts describing an option.
     *
     * @param option the Flink option: its key is the option name, it must have a description
     * @param valueType the Java class of the option's values, matching the option's type
     * @throws IllegalArgumentException if the option has no description
     */
    public static <T> Builder<T> builder(ConfigOption<T> option, Class<T> valueType) {
        return new Builder<>(option, valueType);
    }

    /** The option's name: the key for builder {@code set(..)} calls, SQL hints and options. */
    public String key() {
        return option.key();
    }

    /**
     * The option's other accepted names (Flink fallback and deprecated keys), in the order they are
     * tried after {@link #key()}.
     */
    public List<String> alternativeKeys() {
        List<String> keys = new ArrayList<>();
        for (FallbackKey fallback : option.fallbackKeys()) {
            keys.add(fallback.getKey());
        }
        return Collections.unmodifiableList(keys);
    }

    /** The Flink option with key, type, description and default. */
    public ConfigOption<T> configOption() {
        return option;
    }

    /** The Java class of the option's values. */
    public Class<T> valueType() {
        return valueType;
    }

    /** The Flink configuration key that sets this option job-wide; empty for option-only ones. */
    public Optional<String> flinkConfigKey() {
        return Optional.ofNullable(flinkConfigKey);
    }

    /** The Iceberg table property this option falls back to; empty if there is none. */
    public Optional<String> tableProperty() {
        return Optional.ofNullable(tableProperty);
    }

    /** Whether the option has a default used when no source sets it. */
    public boolean hasDefaultValue() {
        return option.hasDefaultValue();
    }

    /** The default, or {@code null} when the option has none. */
    public T defaultValue() {
        return option.defaultValue();
    }

    /**
     * A copy falling back to another table property; for options whose property depends on the
     * table, such as a compression codec per file format ({@code write.orc.compression-codec}).
     */
    public ConnectorOption<T> withTableProperty(String property) {
        return new ConnectorOption<>(
                option, valueType, flinkConfigKey, requireKey(property, "table property"));
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ConnectorOption<?> that)) {
            return false;
        }
        return option.equals(that.option)
                && valueType.equals(that.valueType)
                && Objects.equals(flinkConfigKey, that.flinkConfigKey)
                && Objects.equals(tableProperty, that.tableProperty);
    }

    @Override
    public int hashCode() {
        return Objects.hash(option, valueType, flinkConfigKey, tableProperty);
    }

    @Override
    public String toString() {
        return "ConnectorOption{key="
                + key()
                + ", type="
                + valueType.getSimpleName()
                + (flinkConfigKey == null ? "" : ", flinkConfigKey=" + flinkConfigKey)
                + (tableProperty == null ? "" : ", tableProperty=" + tableProperty)
                + (option.hasDefaultValue() ? ", default=" + option.defaultValue() : "")
                + "}";
    }

    private static String requireKey(String key, String what) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("The " + what + " name must not be null or blank");
        }
        return key;
    }

    /** Builds a {@link ConnectorOption}; see {@link ConnectorOption#builder}. */
    public static final class Builder<T> {
        private final ConfigOption<T> option;
        private final Class<T> valueType;
        private String flinkConfigKey;
        private String tableProperty;

        private Builder(ConfigOption<T> option, Class<T> valueType) {
            if (option == null || valueType == null) {
                throw new IllegalArgumentException(
                        "A connector option needs a Flink ConfigOption and its value type");
            }
            if (option.description() == null
                    || new HtmlFormatter().format(option.description()).isBlank()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' has no description; every connector option must"
                                        + " say what it does (ConfigOption.withDescription)",
                                option.key()));
            }
            if (option.hasDefaultValue() && !valueType.isInstance(option.defaultValue())) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' has a default of type %s, not the declared %s",
                                option.key(),
                                option.defaultValue().getClass().getName(),
                                valueType.getName()));
            }
            this.option = option;
            this.valueType = valueType;
        }

        /** The Flink configuration key that sets the option job-wide. */
        public Builder<T> flinkConfigKey(String key) {
            this.flinkConfigKey = requireKey(key, "Flink configuration key");
            return this;
        }

        /** The Iceberg table property the option falls back to. */
        public Builder<T> tableProperty(String property) {
            this.tableProperty = requireKey(property, "table property");
            return this;
        }

        public ConnectorOption<T> build() {
            return new ConnectorOption<>(option, valueType, flinkConfigKey, tableProperty);
        }
    }
}
