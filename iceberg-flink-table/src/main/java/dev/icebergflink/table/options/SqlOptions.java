package dev.icebergflink.table.options;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.table.lookup.LookupJoinOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The per-query options of SQL reads and writes ({@code /*+ OPTIONS(...) *}{@code /} hints, and the
 * {@code WITH} options of connector tables), and how they are told apart from table properties.
 *
 * <p>It exists so that the catalog tables and the connector tables accept the same keys and fail
 * the same way on unknown ones. The engine options are the read options ({@link
 * FlinkReadOptions#ALL}), the write options ({@link FlinkWriteOptions#all()}) with the settings of
 * maintenance after the sink's commits ({@link FlinkWriteOptions#maintenanceSettings()}), whatever
 * {@link #registerEngineOptions} adds, the options of lookup joins ({@link LookupJoinOptions#ALL}),
 * plus {@code scan.parallelism}, {@code sink.parallelism} and {@code write.operation}.
 */
@Internal
public final class SqlOptions {

    /** {@code scan.parallelism}: the source parallelism, which wins over inference. */
    public static final ConfigOption<Integer> SCAN_PARALLELISM = FactoryUtil.SOURCE_PARALLELISM;

    /** {@code sink.parallelism}: the writer parallelism (used by the sink). */
    public static final ConfigOption<Integer> SINK_PARALLELISM = FactoryUtil.SINK_PARALLELISM;

    private static final List<ConnectorOption<?>> ENGINE_OPTIONS =
            Collections.synchronizedList(new ArrayList<>(FlinkReadOptions.ALL));

    static {
        ENGINE_OPTIONS.add(ConnectorOption.builder(SCAN_PARALLELISM, Integer.class).build());
        ENGINE_OPTIONS.add(ConnectorOption.builder(SINK_PARALLELISM, Integer.class).build());
        ENGINE_OPTIONS.add(
                ConnectorOption.builder(ConnectorTableOptions.WRITE_OPERATION, String.class)
                        .build());
        registerEngineOptions(FlinkWriteOptions.all());
        registerEngineOptions(FlinkWriteOptions.maintenanceSettings());
        registerEngineOptions(LookupJoinOptions.ALL);
    }

    private SqlOptions() {}

    /**
     * Adds per-query options (for example the write options of the sink) to the keys that hints and
     * connector tables accept. Idempotent.
     */
    public static void registerEngineOptions(List<? extends ConnectorOption<?>> options) {
        synchronized (ENGINE_OPTIONS) {
            for (ConnectorOption<?> option : options) {
                if (!ENGINE_OPTIONS.contains(option)) {
                    ENGINE_OPTIONS.add(option);
                }
            }
        }
    }

    /** Every per-query option. */
    public static List<ConnectorOption<?>> engineOptions() {
        synchronized (ENGINE_OPTIONS) {
            return List.copyOf(ENGINE_OPTIONS);
        }
    }

    /** The keys of every per-query option (with alternative keys), sorted. */
    public static SortedSet<String> engineKeys() {
        return OptionValidation.validKeys(engineOptions());
    }

    /** The entries of {@code options} whose keys are read options, for {@code IcebergSource}. */
    public static Map<String, String> readOptions(Map<String, String> options) {
        Set<String> readKeys = OptionValidation.validKeys(FlinkReadOptions.ALL);
        Map<String, String> read = new LinkedHashMap<>();
        options.forEach(
                (key, value) -> {
                    if (readKeys.contains(key)) {
                        read.put(key, value);
                    }
                });
        return read;
    }

    /**
     * The hints of a query on a table of an Iceberg catalog: the entries of {@code options} (the
     * table's options with the hints merged in by Flink) that are not the table's own options.
     *
     * @param tableName the table, for messages
     * @param options the options Flink passes to the factory
     * @param tableOptions the options the catalog shows for the table (its properties)
     * @throws ValidationException naming hint keys that are neither per-query options nor table
     *     properties, with the valid keys
     */
    public static Map<String, String> hintsOf(
            String tableName, Map<String, String> options, Map<String, String> tableOptions) {
        Map<String, String> hints = new LinkedHashMap<>();
        options.forEach(
                (key, value) -> {
                    if (!Objects.equals(tableOptions.get(key), value)) {
                        hints.put(key, value);
                    }
                });
        MetadataSyncOptions.reject("Table " + tableName, hints.keySet());
        Set<String> valid = engineKeys();
        SortedSet<String> unknown = new TreeSet<>();
        for (String key : hints.keySet()) {
            if (!valid.contains(key) && !tableOptions.containsKey(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "Table %s: %s. Hints (/*+ OPTIONS(...) */) take read and write"
                                    + " options only.",
                            tableName,
                            OptionValidation.unknownKeysMessage(unknown, engineOptions())));
        }
        hints.keySet().retainAll(valid);
        return hints;
    }

    /**
     * The {@code scan.parallelism} option, or {@code null}.
     *
     * @throws ValidationException when it is not a whole number
     */
    public static Integer scanParallelism(String tableName, Map<String, String> options) {
        String value = options.get(SCAN_PARALLELISM.key());
        if (value == null) {
            return null;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new ValidationException(
                    String.format(
                            "Table %s: invalid value '%s' for option '%s': expected a whole number"
                                    + " of at least 1",
                            tableName, value, SCAN_PARALLELISM.key()),
                    e);
        }
    }
}
