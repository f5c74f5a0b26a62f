package dev.icebergflink.table;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The {@code table.exec.iceberg.*} options of the SQL integration, with the names of Iceberg's own
 * connector, set with {@code SET 'key' = 'value'} or in the Flink configuration.
 *
 * <p>It exists so that every session-level switch of the Iceberg source and sink is one described
 * {@link ConfigOption} (reference documentation is generated from them). The planning worker pool
 * ({@code table.exec.iceberg.worker-pool-size}) is a read option, {@code
 * FlinkReadOptions.PLAN_PARALLELISM}.
 */
@PublicEvolving
public final class FlinkConfigOptions {

    private FlinkConfigOptions() {}

    public static final ConfigOption<Boolean> TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM =
            ConfigOptions.key("table.exec.iceberg.infer-source-parallelism")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether a bounded Iceberg read in SQL runs with as many source"
                                    + " subtasks as it has splits (at most"
                                    + " 'table.exec.iceberg.infer-source-parallelism.max', at"
                                    + " most the pushed-down limit, at least 1). When off, the"
                                    + " source uses 'table.exec.resource.default-parallelism'."
                                    + " The operators after an inferred source run at its"
                                    + " parallelism, chained to it. A 'scan.parallelism' table"
                                    + " option always wins (and, as Flink does for that option,"
                                    + " the operators after the source keep the job's default"
                                    + " parallelism).");

    public static final ConfigOption<Integer> TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX =
            ConfigOptions.key("table.exec.iceberg.infer-source-parallelism.max")
                    .intType()
                    .defaultValue(100)
                    .withDescription(
                            "The largest source parallelism that inference chooses; must be at"
                                    + " least 1.");

    public static final ConfigOption<Integer> TABLE_EXEC_ICEBERG_FETCH_BATCH_RECORD_COUNT =
            ConfigOptions.key("table.exec.iceberg.fetch-batch-record-count")
                    .intType()
                    .defaultValue(2048)
                    .withDescription(
                            "How many rows a source reader hands over from its fetcher thread at"
                                    + " a time; must be at least 1.");

    public static final ConfigOption<String> TABLE_EXEC_ICEBERG_SPLIT_ASSIGNER_TYPE =
            ConfigOptions.key("table.exec.iceberg.split-assigner-type")
                    .stringType()
                    .defaultValue("SIMPLE")
                    .withDescription(
                            "How SQL reads hand splits to readers. The only type is 'SIMPLE'"
                                    + " (in planning order); with 'watermark-column' splits are"
                                    + " assigned in watermark order instead.");

    public static final ConfigOption<Boolean> TABLE_EXEC_ICEBERG_USE_FLIP27_SOURCE =
            ConfigOptions.key("table.exec.iceberg.use-flip27-source")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Accepted for compatibility with Iceberg's own connector. This"
                                    + " connector has one source, the FLIP-27 IcebergSource, and"
                                    + " always uses it: 'true' changes nothing, 'false' is"
                                    + " ignored with a warning in the log.");

    public static final ConfigOption<Boolean> TABLE_EXEC_ICEBERG_USE_V2_SINK =
            ConfigOptions.key("table.exec.iceberg.use-v2-sink")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Accepted for compatibility with Iceberg's own connector. This"
                                    + " connector has one sink, the Sink V2 IcebergSink, and"
                                    + " always uses it: 'true' changes nothing, 'false' is"
                                    + " ignored with a warning in the log.");

    /**
     * Whether queries may set file system paths of their own; see {@link
     * dev.icebergflink.table.options.QueryPaths}, which enforces it.
     */
    public static final ConfigOption<Boolean> TABLE_EXEC_ICEBERG_ALLOW_QUERY_PATHS =
            ConfigOptions.key("table.exec.iceberg.allow-query-paths")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "For operators of a shared SQL gateway: false forbids statements to"
                                    + " set local or file system paths and Hadoop settings of"
                                    + " their own. CREATE CATALOG and connector tables may then"
                                    + " not set 'hadoop-conf-dir', 'hive-conf-dir' or 'hadoop.*'"
                                    + " keys; hints and table options may not set"
                                    + " 'upsert-spill-directory' or the table properties"
                                    + " 'flink.manifests.location', 'write.data.path',"
                                    + " 'write.metadata.path', 'write.object-storage.path' and"
                                    + " 'write.folder-storage.path'; a session may not SET"
                                    + " 'upsert-spill-directory' or 'flink.hadoop.*' to values"
                                    + " other than the Flink configuration file's. Such"
                                    + " statements fail naming the key. Read from the Flink"
                                    + " configuration file (config.yaml in $FLINK_CONF_DIR) of"
                                    + " the process that plans the statement, and from the"
                                    + " session: false in either one forbids, so a session can"
                                    + " forbid paths for itself but cannot allow them when the"
                                    + " file says false.");

    /** Every option of this class, for generated documentation. */
    public static final List<ConfigOption<?>> ALL =
            List.of(
                    TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM,
                    TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX,
                    TABLE_EXEC_ICEBERG_ALLOW_QUERY_PATHS,
                    TABLE_EXEC_ICEBERG_FETCH_BATCH_RECORD_COUNT,
                    TABLE_EXEC_ICEBERG_SPLIT_ASSIGNER_TYPE,
                    TABLE_EXEC_ICEBERG_USE_FLIP27_SOURCE,
                    TABLE_EXEC_ICEBERG_USE_V2_SINK);
}
