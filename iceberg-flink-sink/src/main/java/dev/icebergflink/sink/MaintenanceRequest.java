package dev.icebergflink.sink;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionResolver;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Which table maintenance the sink runs after its commits, and with which settings: resolved once
 * with the other write options, and checked by the maintenance module at build time.
 *
 * @param enabledTasks the enable options that are on, by key (empty: no maintenance)
 * @param settings every maintenance setting, from the Flink configuration overlaid by the sink's
 *     own options
 */
@Internal
public record MaintenanceRequest(List<String> enabledTasks, Map<String, String> settings)
        implements Serializable {

    /** The enable options of the maintenance tasks. */
    static final List<ConnectorOption<Boolean>> ENABLE_OPTIONS =
            List.of(
                    FlinkWriteOptions.REWRITE_ENABLED,
                    FlinkWriteOptions.EXPIRE_SNAPSHOTS_ENABLED,
                    FlinkWriteOptions.DELETE_ORPHAN_FILES_ENABLED,
                    FlinkWriteOptions.CONVERT_EQUALITY_DELETES_ENABLED);

    /** Whether any maintenance task is on. */
    public boolean enabled() {
        return !enabledTasks.isEmpty();
    }

    /**
     * Resolves the request; with any task on, finds the maintenance module and has it check the
     * settings.
     *
     * @throws IllegalArgumentException if maintenance is asked for without the maintenance module
     *     on the class path, or a setting is invalid
     */
    static MaintenanceRequest resolve(
            OptionResolver resolver, Map<String, String> options, ReadableConfig flinkConf) {
        List<String> enabled =
                ENABLE_OPTIONS.stream()
                        .filter(option -> Boolean.TRUE.equals(resolver.get(option)))
                        .map(ConnectorOption::key)
                        .toList();
        Map<String, String> settings = new TreeMap<>();
        if (flinkConf != null) {
            flinkConf.toMap().forEach((key, value) -> collect(settings, key, value));
        }
        if (options != null) {
            options.forEach((key, value) -> collect(settings, key, value));
        }
        if (enabled.isEmpty()) {
            return new MaintenanceRequest(List.of(), Map.of());
        }
        PostCommitMaintenance provider =
                PostCommitMaintenance.provider()
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                String.format(
                                                        "Options %s ask for table maintenance"
                                                                + " after the sink's commits, which"
                                                                + " needs the module"
                                                                + " dev.icebergflink:"
                                                                + "iceberg-flink-maintenance on the"
                                                                + " class path (the bundle has"
                                                                + " it)",
                                                        enabled)));
        provider.validate(settings);
        return new MaintenanceRequest(enabled, Map.copyOf(settings));
    }

    private static void collect(Map<String, String> settings, String key, String value) {
        if (key.startsWith(PostCommitMaintenance.PREFIX)
                || FlinkWriteOptions.REWRITE_ENABLED.alternativeKeys().contains(key)) {
            settings.put(key, value);
        }
    }
}
