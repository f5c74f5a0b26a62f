package dev.icebergflink.options;

import dev.icebergflink.util.SecretMasking;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Resolves connector options from their sources in one order: explicit (builder call, SQL hint or
 * {@code WITH} option), then Flink configuration, then Iceberg table property, then the option's
 * default.
 *
 * <p>It exists so that the source, the sink and SQL apply one precedence rule and one parser. Every
 * value is parsed with the option's Flink {@link ConfigOption} (Flink's own parsers: durations like
 * {@code 10 s}, memory sizes like {@code 128 mb}, enums case-insensitively). A value that does not
 * parse fails with an {@link IllegalArgumentException} that names the option, the source it came
 * from, the bad value and what is allowed. A bad value is an error even when a later source would
 * have had a good one: a user who sets an option wants to hear that it is wrong.
 *
 * <p>The resolver is immutable and cheap; create one per table and set of explicit options.
 */
@Internal
public final class OptionResolver {

    private final Map<String, String> explicit;
    private final ReadableConfig flinkConf;
    private final Map<String, String> tableProperties;

    /**
     * @param explicit options set by builder calls, hints or {@code WITH} clauses; {@code null}
     *     means none
     * @param flinkConf the job's Flink configuration; {@code null} means an empty one
     * @param tableProperties the Iceberg table's properties; {@code null} means none (no table yet)
     */
    public OptionResolver(
            Map<String, String> explicit,
            ReadableConfig flinkConf,
            Map<String, String> tableProperties) {
        this.explicit =
                explicit == null
                        ? Collections.emptyMap()
                        : Collections.unmodifiableMap(new HashMap<>(explicit));
        this.flinkConf = flinkConf == null ? new Configuration() : flinkConf;
        this.tableProperties =
                tableProperties == null
                        ? Collections.emptyMap()
                        : Collections.unmodifiableMap(new HashMap<>(tableProperties));
    }

    /**
     * The option's value from the first source that sets it, else its default, else {@code null}
     * (as Flink's {@link ReadableConfig#get} does for options without a default).
     *
     * @throws IllegalArgumentException if the value found does not parse
     */
    public <T> T get(ConnectorOption<T> option) {
        return getOptional(option).orElseGet(option::defaultValue);
    }

    /**
     * The option's value from the first source that sets it; empty when no source sets it (the
     * default is not used, as with Flink's {@link ReadableConfig#getOptional}).
     *
     * @throws IllegalArgumentException if the value found does not parse
     */
    public <T> Optional<T> getOptional(ConnectorOption<T> option) {
        return find(option).map(found -> parse(option, found));
    }

    /**
     * Where the option's value comes from: the first source that sets it, or {@link
     * OptionSource#DEFAULT} when none does. Useful to explain a decision in a log line.
     */
    public OptionSource sourceOf(ConnectorOption<?> option) {
        return find(option).map(Found::source).orElse(OptionSource.DEFAULT);
    }

    /** A raw value and the place it was read from. */
    private record Found(OptionSource source, String key, String raw) {}

    private Optional<Found> find(ConnectorOption<?> option) {
        String value = explicit.get(option.key());
        if (value != null) {
            return Optional.of(new Found(OptionSource.OPTION, option.key(), value));
        }
        for (String alternative : option.alternativeKeys()) {
            value = explicit.get(alternative);
            if (value != null) {
                return Optional.of(new Found(OptionSource.OPTION, alternative, value));
            }
        }
        if (option.flinkConfigKey().isPresent()) {
            String key = option.flinkConfigKey().get();
            // Reading as a string lets Flink render values that were set as objects (Duration,
            // MemorySize, enums) in the form its parsers read back.
            Optional<String> configured =
                    flinkConf.getOptional(ConfigOptions.key(key).stringType().noDefaultValue());
            if (configured.isPresent()) {
                return Optional.of(
                        new Found(OptionSource.FLINK_CONFIGURATION, key, configured.get()));
            }
            // An option whose Flink configuration key is its own key is read there under its
            // alternative keys too (e.g. 'compaction-enabled' for the rewrite's enable option).
            if (key.equals(option.key())) {
                for (String alternative : option.alternativeKeys()) {
                    configured =
                            flinkConf.getOptional(
                                    ConfigOptions.key(alternative).stringType().noDefaultValue());
                    if (configured.isPresent()) {
                        return Optional.of(
                                new Found(
                                        OptionSource.FLINK_CONFIGURATION,
                                        alternative,
                                        configured.get()));
                    }
                }
            }
        }
        if (option.tableProperty().isPresent()) {
            String key = option.tableProperty().get();
            value = tableProperties.get(key);
            if (value != null) {
                return Optional.of(new Found(OptionSource.TABLE_PROPERTY, key, value));
            }
        }
        return Optional.empty();
    }

    private static <T> T parse(ConnectorOption<T> option, Found found) {
        ConfigOption<T> configOption = option.configOption();
        Map<String, String> single = new HashMap<>();
        single.put(configOption.key(), found.raw());
        try {
            return Configuration.fromMap(single).get(configOption);
        } catch (IllegalArgumentException e) {
            String where =
                    found.key().equals(option.key())
                            ? found.source().describe(found.key())
                            : found.source().describe(found.key())
                                    + " (for option '"
                                    + option.key()
                                    + "')";
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' set by %s: expected %s",
                            SecretMasking.mask(found.key(), found.raw()),
                            option.key(),
                            where,
                            expectation(option.valueType())),
                    e);
        }
    }

    /** What a value of this type looks like, for error messages. */
    static String expectation(Class<?> type) {
        if (type.isEnum()) {
            return "one of "
                    + Arrays.stream(type.getEnumConstants())
                            .map(String::valueOf)
                            .collect(Collectors.joining(", ", "[", "]"))
                    + " (case-insensitive)";
        } else if (type == Integer.class) {
            return "an integer from "
                    + Integer.MIN_VALUE
                    + " to "
                    + Integer.MAX_VALUE
                    + ", e.g. 100";
        } else if (type == Long.class) {
            return "a whole number (long), e.g. 134217728";
        } else if (type == Boolean.class) {
            return "true or false";
        } else if (type == Double.class || type == Float.class) {
            return "a number, e.g. 0.5";
        } else if (type == Duration.class) {
            return "a duration with a unit, e.g. '500 ms', '10 s', '5 min' or '1 h'";
        } else if (type == MemorySize.class) {
            return "a memory size with a unit, e.g. '64 kb', '128 mb' or '1 gb'";
        } else if (Map.class.isAssignableFrom(type)) {
            return "a map written as 'key1:value1,key2:value2'";
        } else {
            return "a value of type " + type.getSimpleName();
        }
    }
}
