package dev.icebergflink.sink.dynamic;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.sink.FlinkWriteConf;
import dev.icebergflink.sink.FlinkWriteOptions;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Everything the dynamic sink's operators need from its builder, as one immutable, serializable
 * value that travels in the job graph.
 *
 * <p>It exists so that the resolution, the writers and the committer are configured by one
 * validated object; the write options are resolved per table at run time ({@link #writeConf}),
 * against each table's own properties.
 */
@Internal
record DynamicSinkSettings(
        CatalogLoader catalogLoader,
        TableCreator tableCreator,
        Map<String, String> writeOptions,
        Configuration flinkConf,
        boolean overwrite,
        Map<String, String> snapshotProperties,
        String defaultBranch,
        boolean immediateTableUpdate,
        boolean dropUnusedColumns,
        int cacheMaxSize,
        long cacheRefreshMs,
        int inputSchemasPerTableCacheMaxSize,
        boolean caseSensitive,
        int maxOpenWriters,
        boolean incompatibleRecordsToSideOutput,
        String uidPrefix)
        implements Serializable {

    /**
     * The write options of one table: explicit options, then Flink configuration, then the table's
     * properties.
     *
     * @throws IllegalArgumentException naming the option whose value is bad
     */
    FlinkWriteConf writeConf(Map<String, String> tableProperties) {
        return FlinkWriteConf.resolve(writeOptions, flinkConf, tableProperties);
    }

    /**
     * The write options' keys of {@code config}, copied into a serializable configuration (a job's
     * configuration is only readable).
     */
    static Configuration copyWriteOptions(ReadableConfig config) {
        Configuration copy = new Configuration();
        if (config == null) {
            return copy;
        }
        for (ConnectorOption<?> option : FlinkWriteOptions.all()) {
            option.flinkConfigKey()
                    .map(key -> ConfigOptions.key(key).stringType().noDefaultValue())
                    .ifPresent(key -> config.getOptional(key).ifPresent(v -> copy.set(key, v)));
        }
        return copy;
    }
}
