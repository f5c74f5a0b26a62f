package dev.icebergflink.source;

import dev.icebergflink.options.ConnectorOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.iceberg.TableProperties;

/**
 * The read options of the Iceberg source, named and meant as in Iceberg's own connector, with their
 * names, Flink configuration keys, table-property fallbacks and defaults.
 *
 * <p>It exists so that the builder ({@code IcebergSource.builder().set(key, value)}), SQL hints and
 * {@code WITH} options all accept the same keys and resolve them in the same order (explicit, Flink
 * configuration, table property, default). Options whose table property should win when the user
 * says nothing (the split-size family) deliberately have no default here: the source falls back to
 * Iceberg's own defaults after the table property.
 */
@PublicEvolving
public final class FlinkReadOptions {

    /** The prefix of the Flink configuration keys of read options. */
    public static final String CONFIG_PREFIX = "connector.iceberg.";

    private FlinkReadOptions() {}

    public static final ConnectorOption<Long> SNAPSHOT_ID =
            option(
                    ConfigOptions.key("snapshot-id")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "Batch time travel: read the table as of this snapshot id."
                                            + " Wins over 'tag' and 'branch'; not allowed in"
                                            + " streaming mode."),
                    Long.class,
                    false,
                    null);

    public static final ConnectorOption<String> TAG =
            option(
                    ConfigOptions.key("tag")
                            .stringType()
                            .noDefaultValue()
                            .withDescription(
                                    "Batch time travel: read the snapshot this tag points to. Not"
                                            + " allowed in streaming mode."),
                    String.class,
                    false,
                    null);

    public static final ConnectorOption<String> BRANCH =
            option(
                    ConfigOptions.key("branch")
                            .stringType()
                            .noDefaultValue()
                            .withDescription(
                                    "Read this branch instead of main; streaming reads follow"
                                            + " the branch head."),
                    String.class,
                    false,
                    null);

    public static final ConnectorOption<Long> AS_OF_TIMESTAMP =
            option(
                    ConfigOptions.key("as-of-timestamp")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "Batch time travel: read the snapshot that was current at this"
                                            + " time (epoch milliseconds). Not allowed together"
                                            + " with 'snapshot-id' or in streaming mode."),
                    Long.class,
                    false,
                    null);

    public static final ConnectorOption<Long> START_SNAPSHOT_ID =
            option(
                    ConfigOptions.key("start-snapshot-id")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "Incremental read start. Without an explicit starting"
                                            + " strategy it is exclusive: only appends committed"
                                            + " after this snapshot are read (batch and"
                                            + " streaming). With 'starting-strategy' ="
                                            + " INCREMENTAL_FROM_SNAPSHOT_ID the snapshot's own"
                                            + " appends are read too."),
                    Long.class,
                    false,
                    null);

    public static final ConnectorOption<Long> START_SNAPSHOT_TIMESTAMP =
            option(
                    ConfigOptions.key("start-snapshot-timestamp")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "Incremental read start as a time (epoch milliseconds)."
                                            + " Without an explicit starting strategy only appends"
                                            + " committed after this time are read. With"
                                            + " 'starting-strategy' ="
                                            + " INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP the oldest"
                                            + " snapshot committed at or after it is read too."),
                    Long.class,
                    false,
                    null);

    public static final ConnectorOption<Long> END_SNAPSHOT_ID =
            option(
                    ConfigOptions.key("end-snapshot-id")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "Bounded incremental read end (inclusive); defaults to the"
                                            + " current snapshot. Batch only."),
                    Long.class,
                    false,
                    null);

    public static final ConnectorOption<String> START_TAG =
            option(
                    ConfigOptions.key("start-tag")
                            .stringType()
                            .noDefaultValue()
                            .withDescription(
                                    "Bounded incremental read start (exclusive) given as a tag;"
                                            + " not together with 'start-snapshot-id'."),
                    String.class,
                    false,
                    null);

    public static final ConnectorOption<String> END_TAG =
            option(
                    ConfigOptions.key("end-tag")
                            .stringType()
                            .noDefaultValue()
                            .withDescription(
                                    "Bounded incremental read end (inclusive) given as a tag; not"
                                            + " together with 'end-snapshot-id'. Batch only."),
                    String.class,
                    false,
                    null);

    public static final ConnectorOption<Boolean> CASE_SENSITIVE =
            option(
                    ConfigOptions.key("case-sensitive")
                            .booleanType()
                            .defaultValue(false)
                            .withDescription(
                                    "Whether column names in projections, filters and the"
                                            + " watermark column are matched case-sensitively."),
                    Boolean.class,
                    true,
                    null);

    public static final ConnectorOption<StreamingStartingStrategy> STARTING_STRATEGY =
            option(
                    ConfigOptions.key("starting-strategy")
                            .enumType(StreamingStartingStrategy.class)
                            .defaultValue(StreamingStartingStrategy.TABLE_SCAN_THEN_INCREMENTAL)
                            .withDescription(
                                    "Where a streaming read starts. The default"
                                            + " TABLE_SCAN_THEN_INCREMENTAL reads the whole current"
                                            + " table, then every later append. A bare"
                                            + " 'start-snapshot-id' or 'start-snapshot-timestamp'"
                                            + " without this option reads the appends after it"
                                            + " (exclusive)."),
                    StreamingStartingStrategy.class,
                    true,
                    null);

    public static final ConnectorOption<Long> SPLIT_SIZE =
            option(
                    ConfigOptions.key("split-size")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "Target size of a split in bytes; falls back to the table"
                                            + " property 'read.split.target-size', then 128 MB."),
                    Long.class,
                    true,
                    TableProperties.SPLIT_SIZE);

    public static final ConnectorOption<Integer> SPLIT_LOOKBACK =
            option(
                    ConfigOptions.key("split-lookback")
                            .intType()
                            .noDefaultValue()
                            .withDescription(
                                    "How many bins split planning considers when packing files"
                                            + " into splits; falls back to the table property"
                                            + " 'read.split.planning-lookback', then 10."),
                    Integer.class,
                    true,
                    TableProperties.SPLIT_LOOKBACK);

    public static final ConnectorOption<Long> SPLIT_FILE_OPEN_COST =
            option(
                    ConfigOptions.key("split-file-open-cost")
                            .longType()
                            .noDefaultValue()
                            .withDescription(
                                    "The size in bytes a file counts at least when packing"
                                            + " splits; falls back to the table property"
                                            + " 'read.split.open-file-cost', then 4 MB."),
                    Long.class,
                    true,
                    TableProperties.SPLIT_OPEN_FILE_COST);

    public static final ConnectorOption<Boolean> ADAPTIVE_SPLIT_SIZE =
            option(
                    ConfigOptions.key("adaptive-split-size-enabled")
                            .booleanType()
                            .noDefaultValue()
                            .withDescription(
                                    "Whether a bounded read that plans fewer splits than it has"
                                            + " reader subtasks plans smaller ones, so that every"
                                            + " reader gets work (down to the scanned size per"
                                            + " reader, but not below 16 MB or the split size)."
                                            + " Only when 'split-size' is not set as an option or"
                                            + " in the Flink configuration; the table property"
                                            + " 'read.split.target-size' does not turn it off."
                                            + " SQL's parallelism inference counts the splits"
                                            + " planned this way for its maximum parallelism."
                                            + " Falls back to the table property"
                                            + " 'read.split.adaptive-size.enabled', then true."),
                    Boolean.class,
                    true,
                    TableProperties.ADAPTIVE_SPLIT_SIZE_ENABLED);

    public static final ConnectorOption<Boolean> STREAMING =
            option(
                    ConfigOptions.key("streaming")
                            .booleanType()
                            .defaultValue(false)
                            .withDescription(
                                    "Whether the read is unbounded and keeps picking up new"
                                            + " snapshots."),
                    Boolean.class,
                    true,
                    null);

    public static final ConnectorOption<Duration> MONITOR_INTERVAL =
            option(
                    ConfigOptions.key("monitor-interval")
                            .durationType()
                            .defaultValue(Duration.ofSeconds(10))
                            .withDescription(
                                    "How often a streaming read looks for new snapshots. The"
                                            + " default, 10 s, is the one Iceberg's Flink"
                                            + " documentation gives; Iceberg's own connector"
                                            + " polls every 60 s."),
                    Duration.class,
                    true,
                    null);

    public static final ConnectorOption<Boolean> INCLUDE_COLUMN_STATS =
            option(
                    ConfigOptions.key("include-column-stats")
                            .booleanType()
                            .defaultValue(false)
                            .withDescription(
                                    "Whether planned splits keep the column statistics of their"
                                            + " files (larger splits and state)."),
                    Boolean.class,
                    true,
                    null);

    public static final ConnectorOption<Integer> MAX_PLANNING_SNAPSHOT_COUNT =
            option(
                    ConfigOptions.key("max-planning-snapshot-count")
                            .intType()
                            .defaultValue(Integer.MAX_VALUE)
                            .withDescription(
                                    "The most snapshots one streaming planning round covers;"
                                            + " must be at least 1."),
                    Integer.class,
                    true,
                    null);

    public static final ConnectorOption<Long> LIMIT =
            option(
                    ConfigOptions.key("limit")
                            .longType()
                            .defaultValue(-1L)
                            .withDescription(
                                    "The most rows the source emits in total; -1 means no limit."
                                            + " To make the limit exact, a limited read hands"
                                            + " every split to one reader subtask (the other"
                                            + " subtasks finish at once), so it reads with the"
                                            + " throughput of one subtask; once the limit is"
                                            + " reached the read ends, also in streaming mode."
                                            + " The count is not checkpointed: after a restore"
                                            + " from a checkpoint the reader may emit up to limit"
                                            + " rows again."),
                    Long.class,
                    true,
                    null);

    public static final ConnectorOption<Integer> MAX_ALLOWED_PLANNING_FAILURES =
            option(
                    ConfigOptions.key("max-allowed-planning-failures")
                            .intType()
                            .defaultValue(3)
                            .withDescription(
                                    "How many consecutive failed planning rounds a streaming read"
                                            + " tolerates before the job fails; -1 means never"
                                            + " fail. Must be at least -1."),
                    Integer.class,
                    true,
                    null);

    public static final ConnectorOption<String> WATERMARK_COLUMN =
            option(
                    ConfigOptions.key("watermark-column")
                            .stringType()
                            .noDefaultValue()
                            .withDescription(
                                    "A long, timestamp or timestamp_ns column whose lower bounds"
                                            + " give each split's watermark; splits are then"
                                            + " assigned in watermark order."),
                    String.class,
                    true,
                    null);

    public static final ConnectorOption<TimeUnit> WATERMARK_COLUMN_TIME_UNIT =
            option(
                    ConfigOptions.key("watermark-column-time-unit")
                            .enumType(TimeUnit.class)
                            .defaultValue(TimeUnit.MICROSECONDS)
                            .withDescription("The time unit of a long watermark column."),
                    TimeUnit.class,
                    true,
                    null);

    public static final ConnectorOption<String> NAME_MAPPING =
            option(
                    ConfigOptions.key(TableProperties.DEFAULT_NAME_MAPPING)
                            .stringType()
                            .noDefaultValue()
                            .withDescription(
                                    "A JSON name mapping for data files written without Iceberg"
                                            + " field ids; falls back to the table property of"
                                            + " the same name."),
                    String.class,
                    false,
                    TableProperties.DEFAULT_NAME_MAPPING);

    public static final ConnectorOption<Integer> PLAN_PARALLELISM =
            ConnectorOption.builder(
                            ConfigOptions.key("table.exec.iceberg.worker-pool-size")
                                    .intType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Threads used to plan splits; defaults to Iceberg's"
                                                    + " worker pool size."),
                            Integer.class)
                    .flinkConfigKey("table.exec.iceberg.worker-pool-size")
                    .build();

    public static final ConnectorOption<Boolean> STREAMING_SKIP_OVERWRITE_SNAPSHOTS =
            option(
                    ConfigOptions.key("streaming-skip-overwrite-snapshots")
                            .booleanType()
                            .defaultValue(false)
                            .withDescription(
                                    "Whether a streaming read skips 'overwrite' snapshots (upserts,"
                                            + " overwrites) instead of failing on them. Skipped"
                                            + " snapshots' added rows are not read."),
                    Boolean.class,
                    true,
                    null);

    public static final ConnectorOption<Boolean> STREAMING_SKIP_DELETE_SNAPSHOTS =
            option(
                    ConfigOptions.key("streaming-skip-delete-snapshots")
                            .booleanType()
                            .defaultValue(false)
                            .withDescription(
                                    "Whether a streaming read skips 'delete' snapshots instead of"
                                            + " failing on them. Rows already emitted stay"
                                            + " emitted."),
                    Boolean.class,
                    true,
                    null);

    public static final ConnectorOption<Integer> SPLIT_PLANNING_PAGE_SIZE =
            option(
                    ConfigOptions.key("split-planning-page-size")
                            .intType()
                            .defaultValue(1000)
                            .withDescription(
                                    "The most pending splits the enumerator keeps from a full"
                                            + " table scan (bounded reads, bounded incremental"
                                            + " reads and the first scan of"
                                            + " TABLE_SCAN_THEN_INCREMENTAL): it plans such scans"
                                            + " page by page on one thread and checkpoints only"
                                            + " the pending page plus a cursor, so its state"
                                            + " stays small for huge tables. Split assigners"
                                            + " order splits within the pending splits only."
                                            + " -1 plans the whole scan at once (in parallel with"
                                            + " 'table.exec.iceberg.worker-pool-size') and keeps"
                                            + " every split in state. Must be -1 or at least 1."),
                    Integer.class,
                    true,
                    null);

    public static final ConnectorOption<String> CHANGELOG_MODE =
            option(
                    ConfigOptions.key("changelog-mode")
                            .stringType()
                            .defaultValue(ChangelogReadMode.INSERT_ONLY.optionValue())
                            .withDescription(
                                    "Which changes a read emits. 'insert-only': added rows"
                                            + " only; a streaming read fails on 'overwrite' and"
                                            + " 'delete' snapshots unless told to skip them."
                                            + " 'all': every change in commit order, added rows"
                                            + " as +I, removed rows (by deletes, deletion"
                                            + " vectors or removed files) as -D with the whole"
                                            + " row, a key removed and added again by one"
                                            + " snapshot (tables with identifier fields) as -U"
                                            + " and +U; 'replace' snapshots emit nothing. A"
                                            + " changelog read runs with source parallelism 1"
                                            + " to keep commit order."),
                    String.class,
                    true,
                    null);

    /** Every read option, for key validation and generated documentation. */
    public static final List<ConnectorOption<?>> ALL =
            List.of(
                    SNAPSHOT_ID,
                    TAG,
                    BRANCH,
                    AS_OF_TIMESTAMP,
                    START_SNAPSHOT_ID,
                    START_SNAPSHOT_TIMESTAMP,
                    END_SNAPSHOT_ID,
                    START_TAG,
                    END_TAG,
                    CASE_SENSITIVE,
                    STARTING_STRATEGY,
                    SPLIT_SIZE,
                    SPLIT_LOOKBACK,
                    SPLIT_FILE_OPEN_COST,
                    ADAPTIVE_SPLIT_SIZE,
                    STREAMING,
                    MONITOR_INTERVAL,
                    INCLUDE_COLUMN_STATS,
                    MAX_PLANNING_SNAPSHOT_COUNT,
                    LIMIT,
                    MAX_ALLOWED_PLANNING_FAILURES,
                    WATERMARK_COLUMN,
                    WATERMARK_COLUMN_TIME_UNIT,
                    NAME_MAPPING,
                    PLAN_PARALLELISM,
                    STREAMING_SKIP_OVERWRITE_SNAPSHOTS,
                    STREAMING_SKIP_DELETE_SNAPSHOTS,
                    SPLIT_PLANNING_PAGE_SIZE,
                    CHANGELOG_MODE);

    private static <T> ConnectorOption<T> option(
            ConfigOption<T> option, Class<T> type, boolean flinkConfig, String tableProperty) {
        ConnectorOption.Builder<T> builder = ConnectorOption.builder(option, type);
        if (flinkConfig) {
            builder.flinkConfigKey(CONFIG_PREFIX + option.key());
        }
        if (tableProperty != null) {
            builder.tableProperty(tableProperty);
        }
        return builder.build();
    }
}
