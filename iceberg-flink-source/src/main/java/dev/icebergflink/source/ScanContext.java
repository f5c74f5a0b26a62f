package dev.icebergflink.source;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionResolver;
import dev.icebergflink.options.OptionSource;
import dev.icebergflink.options.OptionValidation;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The resolved and validated read configuration of one {@link IcebergSource}.
 *
 * <p>It exists so that builders (Java and SQL) only collect settings, while this class applies the
 * option precedence once ({@link OptionResolver}: explicit, Flink configuration, table property,
 * default) and rejects contradictions with messages that name the options. Planning, enumerators
 * and readers read their settings from here. Immutable and serializable (it travels inside the
 * source to the JobManager and TaskManagers; it is never part of checkpointed state).
 */
@Internal
public final class ScanContext implements Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean caseSensitive;
    private final Long snapshotId;
    private final String tag;
    private final String branch;
    private final Long asOfTimestamp;
    private final Long startSnapshotId;
    private final Long startSnapshotTimestamp;
    private final Long endSnapshotId;
    private final String startTag;
    private final String endTag;
    private final boolean streaming;
    private final StreamingStartingStrategy startingStrategy;
    private final boolean startingStrategyExplicit;
    private final Duration monitorInterval;
    private final boolean includeColumnStats;
    private final int maxPlanningSnapshotCount;
    private final long limit;
    private final int maxAllowedPlanningFailures;
    private final String watermarkColumn;
    private final TimeUnit watermarkColumnTimeUnit;
    private final String nameMapping;
    private final Integer planParallelism;
    private final int splitPlanningPageSize;
    private final boolean skipOverwriteSnapshots;
    private final boolean skipDeleteSnapshots;
    private final long splitSize;
    private final int splitLookback;
    private final long splitOpenFileCost;
    private final boolean adaptiveSplitSize;
    private final Schema tableSchema;
    private final Schema projectedSchema;
    private final List<Expression> filters;

    private ScanContext(
            OptionResolver options, Table table, Schema projection, List<Expression> f) {
        this.caseSensitive = options.get(FlinkReadOptions.CASE_SENSITIVE);
        this.snapshotId = options.get(FlinkReadOptions.SNAPSHOT_ID);
        this.tag = options.get(FlinkReadOptions.TAG);
        this.branch = options.get(FlinkReadOptions.BRANCH);
        this.asOfTimestamp = options.get(FlinkReadOptions.AS_OF_TIMESTAMP);
        this.startSnapshotId = options.get(FlinkReadOptions.START_SNAPSHOT_ID);
        this.startSnapshotTimestamp = options.get(FlinkReadOptions.START_SNAPSHOT_TIMESTAMP);
        this.endSnapshotId = options.get(FlinkReadOptions.END_SNAPSHOT_ID);
        this.startTag = options.get(FlinkReadOptions.START_TAG);
        this.endTag = options.get(FlinkReadOptions.END_TAG);
        this.streaming = options.get(FlinkReadOptions.STREAMING);
        this.startingStrategy = options.get(FlinkReadOptions.STARTING_STRATEGY);
        this.startingStrategyExplicit =
                options.sourceOf(FlinkReadOptions.STARTING_STRATEGY) != OptionSource.DEFAULT;
        this.monitorInterval = options.get(FlinkReadOptions.MONITOR_INTERVAL);
        this.includeColumnStats = options.get(FlinkReadOptions.INCLUDE_COLUMN_STATS);
        this.maxPlanningSnapshotCount = options.get(FlinkReadOptions.MAX_PLANNING_SNAPSHOT_COUNT);
        this.limit = options.get(FlinkReadOptions.LIMIT);
        this.maxAllowedPlanningFailures =
                options.get(FlinkReadOptions.MAX_ALLOWED_PLANNING_FAILURES);
        this.watermarkColumn = options.get(FlinkReadOptions.WATERMARK_COLUMN);
        this.watermarkColumnTimeUnit = options.get(FlinkReadOptions.WATERMARK_COLUMN_TIME_UNIT);
        this.nameMapping = options.get(FlinkReadOptions.NAME_MAPPING);
        this.planParallelism = options.get(FlinkReadOptions.PLAN_PARALLELISM);
        this.splitPlanningPageSize = options.get(FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE);
        this.skipOverwriteSnapshots =
                options.get(FlinkReadOptions.STREAMING_SKIP_OVERWRITE_SNAPSHOTS);
        this.skipDeleteSnapshots = options.get(FlinkReadOptions.STREAMING_SKIP_DELETE_SNAPSHOTS);
        this.splitSize =
                orDefault(options, FlinkReadOptions.SPLIT_SIZE, TableProperties.SPLIT_SIZE_DEFAULT);
        this.splitLookback =
                orDefault(
                        options,
                        FlinkReadOptions.SPLIT_LOOKBACK,
                        TableProperties.SPLIT_LOOKBACK_DEFAULT);
        OptionSource splitSizeSource = options.sourceOf(FlinkReadOptions.SPLIT_SIZE);
        this.adaptiveSplitSize =
                orDefault(
                                options,
                                FlinkReadOptions.ADAPTIVE_SPLIT_SIZE,
                                TableProperties.ADAPTIVE_SPLIT_SIZE_ENABLED_DEFAULT)
                        && splitSizeSource != OptionSource.OPTION
                        && splitSizeSource != OptionSource.FLINK_CONFIGURATION;
        this.splitOpenFileCost =
                orDefault(
                        options,
                        FlinkReadOptions.SPLIT_FILE_OPEN_COST,
                        TableProperties.SPLIT_OPEN_FILE_COST_DEFAULT);
        this.tableSchema = readSchema(table, snapshotId, tag);
        this.filters = List.copyOf(f);
        this.projectedSchema = projection == null ? null : resolveProjection(projection);
    }

    /**
     * Resolves and validates the read configuration of {@code table}.
     *
     * @param explicit options set through the builder ({@code set}, {@code setAll} and the named
     *     setters) or SQL hints, by option key
     * @param flinkConf the job's Flink configuration (may be {@code null})
     * @param table the table to read, loaded
     * @param projection the top-level columns to read, or {@code null} for all
     * @param filters Iceberg filters, applied to plan files and as residuals while reading
     * @throws IllegalArgumentException naming the options when a value is invalid, a key unknown,
     *     or settings contradict each other
     */
    public static ScanContext resolve(
            Map<String, String> explicit,
            ReadableConfig flinkConf,
            Table table,
            Schema projection,
            List<Expression> filters) {
        OptionValidation.checkKnownKeys(explicit.keySet(), FlinkReadOptions.ALL);
        ScanContext context =
                new ScanContext(
                        new OptionResolver(explicit, flinkConf, table.properties()),
                        table,
                        projection,
                        filters == null ? List.of() : filters);
        context.validate(table);
        return context;
    }

    /** The schema of the time-travel target (its snapshot's schema), else the current one. */
    private static Schema readSchema(Table table, Long snapshotId, String tag) {
        org.apache.iceberg.Snapshot target =
                snapshotId != null
                        ? table.snapshot(snapshotId)
                        : tag != null ? table.snapshot(tag) : null;
        if (target == null || target.schemaId() == null) {
            return table.schema();
        }
        Schema schema = table.schemas().get(target.schemaId());
        return schema == null ? table.schema() : schema;
    }

    private static <T> T orDefault(OptionResolver options, ConnectorOption<T> option, T fallback) {
        return options.getOptional(option).orElse(fallback);
    }

    private Schema resolveProjection(Schema projection) {
        List<Types.NestedField> fields = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Types.NestedField requested : projection.columns()) {
            Types.NestedField found =
                    caseSensitive
                            ? tableSchema.findField(requested.name())
                            : tableSchema.caseInsensitiveFindField(requested.name());
            if (found == null || tableSchema.asStruct().field(found.fieldId()) == null) {
                missing.add(requested.name());
            } else {
                fields.add(found);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The projection names column(s) %s that the table does not have"
                                    + " (case-%s); the table's columns are %s",
                            missing,
                            caseSensitive ? "sensitive" : "insensitive",
                            columnNames(tableSchema)));
        }
        return new Schema(fields);
    }

    private void validate(Table table) {
        check(
                !(snapshotId != null && asOfTimestamp != null),
                "Options 'snapshot-id' and 'as-of-timestamp' cannot both be set: both choose the"
                        + " snapshot to read");
        check(
                !(tag != null && asOfTimestamp != null),
                "Options 'tag' and 'as-of-timestamp' cannot both be set: both choose the snapshot"
                        + " to read");
        check(
                !(startSnapshotId != null && startTag != null),
                "Options 'start-snapshot-id' and 'start-tag' cannot both be set");
        check(
                !(endSnapshotId != null && endTag != null),
                "Options 'end-snapshot-id' and 'end-tag' cannot both be set");
        boolean timeTravel = snapshotId != null || tag != null || asOfTimestamp != null;
        boolean incremental =
                startSnapshotId != null
                        || startTag != null
                        || endSnapshotId != null
                        || endTag != null
                        || startSnapshotTimestamp != null;
        check(
                !(timeTravel && incremental),
                "Time travel options ('snapshot-id', 'tag', 'as-of-timestamp') cannot be combined"
                        + " with incremental options ('start-snapshot-id',"
                        + " 'start-snapshot-timestamp', 'start-tag', 'end-snapshot-id', 'end-tag')");
        if (streaming) {
            List<String> batchOnly = new ArrayList<>();
            addIfSet(batchOnly, "snapshot-id", snapshotId);
            addIfSet(batchOnly, "as-of-timestamp", asOfTimestamp);
            addIfSet(batchOnly, "tag", tag);
            addIfSet(batchOnly, "end-snapshot-id", endSnapshotId);
            addIfSet(batchOnly, "end-tag", endTag);
            addIfSet(batchOnly, "start-tag", startTag);
            check(
                    batchOnly.isEmpty(),
                    "Option(s) "
                            + batchOnly
                            + " are for bounded reads and cannot be used with 'streaming' = true");
            validateStartingStrategy();
        }
        check(
                maxPlanningSnapshotCount >= 1,
                "Option 'max-planning-snapshot-count' must be at least 1, got "
                        + maxPlanningSnapshotCount);
        check(
                maxAllowedPlanningFailures >= -1,
                "Option 'max-allowed-planning-failures' must be -1 (never fail) or at least 0, got "
                        + maxAllowedPlanningFailures);
        check(
                !monitorInterval.isNegative() && !monitorInterval.isZero(),
                "Option 'monitor-interval' must be positive, got " + monitorInterval);
        check(limit >= -1, "Option 'limit' must be -1 (no limit) or at least 0, got " + limit);
        check(splitSize > 0, "Option 'split-size' must be positive, got " + splitSize);
        check(splitLookback > 0, "Option 'split-lookback' must be positive, got " + splitLookback);
        check(
                splitOpenFileCost >= 0,
                "Option 'split-file-open-cost' must not be negative, got " + splitOpenFileCost);
        check(
                planParallelism == null || planParallelism > 0,
                "Option 'table.exec.iceberg.worker-pool-size' must be positive, got "
                        + planParallelism);
        check(
                splitPlanningPageSize == -1 || splitPlanningPageSize >= 1,
                "Option 'split-planning-page-size' must be -1 (no paging) or at least 1, got "
                        + splitPlanningPageSize);
        validateReferences(table);
        validateWatermarkColumn();
        validateFilters();
    }

    private void validateStartingStrategy() {
        if (!startingStrategyExplicit) {
            check(
                    !(startSnapshotId != null && startSnapshotTimestamp != null),
                    "Options 'start-snapshot-id' and 'start-snapshot-timestamp' cannot both be set");
            return;
        }
        switch (startingStrategy) {
            case INCREMENTAL_FROM_SNAPSHOT_ID -> {
                check(
                        startSnapshotId != null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_ID needs"
                                + " 'start-snapshot-id'");
                check(
                        startSnapshotTimestamp == null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_ID does not take"
                                + " 'start-snapshot-timestamp'");
            }
            case INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP -> {
                check(
                        startSnapshotTimestamp != null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP needs"
                                + " 'start-snapshot-timestamp'");
                check(
                        startSnapshotId == null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP does not"
                                + " take 'start-snapshot-id'");
            }
            default -> {
                check(
                        startSnapshotId == null && startSnapshotTimestamp == null,
                        "Option 'starting-strategy' = "
                                + startingStrategy
                                + " does not take 'start-snapshot-id' or"
                                + " 'start-snapshot-timestamp'; use INCREMENTAL_FROM_SNAPSHOT_ID or"
                                + " INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP, or no strategy for an"
                                + " exclusive start");
            }
        }
    }

    private void validateReferences(Table table) {
        if (snapshotId != null) {
            check(
                    table.snapshot(snapshotId) != null,
                    "Option 'snapshot-id' = " + snapshotId + " names no snapshot of " + table);
        }
        checkRef(table, "tag", tag, false);
        checkRef(table, "start-tag", startTag, false);
        checkRef(table, "end-tag", endTag, false);
        checkRef(table, "branch", branch, true);
        if (startSnapshotId != null) {
            check(
                    table.snapshot(startSnapshotId) != null,
                    "Option 'start-snapshot-id' = "
                            + startSnapshotId
                            + " names no snapshot of "
                            + table);
        }
        if (endSnapshotId != null) {
            check(
                    table.snapshot(endSnapshotId) != null,
                    "Option 'end-snapshot-id' = "
                            + endSnapshotId
                            + " names no snapshot of "
                            + table);
        }
    }

    private static void checkRef(Table table, String option, String name, boolean branch) {
        if (name == null) {
            return;
        }
        SnapshotRef ref = table.refs().get(name);
        check(
                ref != null && (branch ? ref.isBranch() : ref.isTag()),
                String.format(
                        "Option '%s' = '%s' names no %s of %s; its %ss are %s",
                        option,
                        name,
                        branch ? "branch" : "tag",
                        table,
                        branch ? "branche" : "tag",
                        table.refs().entrySet().stream()
                                .filter(
                                        e ->
                                                branch
                                                        ? e.getValue().isBranch()
                                                        : e.getValue().isTag())
                                .map(Map.Entry::getKey)
                                .sorted()
                                .toList()));
    }

    private void validateWatermarkColumn() {
        if (watermarkColumn == null) {
            return;
        }
        Types.NestedField field = findColumn(watermarkColumn).orElse(null);
        check(
                field != null,
                "Option 'watermark-column' = '"
                        + watermarkColumn
                        + "' names no column of the table; its columns are "
                        + columnNames(tableSchema));
        Type.TypeID type = field.type().typeId();
        check(
                type == Type.TypeID.LONG
                        || type == Type.TypeID.TIMESTAMP
                        || type == Type.TypeID.TIMESTAMP_NANO,
                "Option 'watermark-column' = '"
                        + watermarkColumn
                        + "' has type "
                        + field.type()
                        + "; allowed are long, timestamp, timestamptz, timestamp_ns and"
                        + " timestamptz_ns");
    }

    private void validateFilters() {
        for (Expression filter : filters) {
            try {
                Binder.bind(tableSchema.asStruct(), filter, caseSensitive);
            } catch (ValidationException e) {
                throw new IllegalArgumentException(
                        "Filter " + filter + " does not fit the table: " + e.getMessage(), e);
            }
        }
    }

    /** The table column with this name, honouring {@link #caseSensitive()}. */
    public Optional<Types.NestedField> findColumn(String name) {
        return Optional.ofNullable(
                caseSensitive
                        ? tableSchema.findField(name)
                        : tableSchema.caseInsensitiveFindField(name));
    }

    private static List<String> columnNames(Schema schema) {
        return schema.columns().stream().map(Types.NestedField::name).toList();
    }

    private static void addIfSet(List<String> names, String name, Object value) {
        if (value != null) {
            names.add(name);
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public boolean caseSensitive() {
        return caseSensitive;
    }

    public Long snapshotId() {
        return snapshotId;
    }

    public String tag() {
        return tag;
    }

    public String branch() {
        return branch;
    }

    public Long asOfTimestamp() {
        return asOfTimestamp;
    }

    public Long startSnapshotId() {
        return startSnapshotId;
    }

    public Long startSnapshotTimestamp() {
        return startSnapshotTimestamp;
    }

    public Long endSnapshotId() {
        return endSnapshotId;
    }

    public String startTag() {
        return startTag;
    }

    public String endTag() {
        return endTag;
    }

    /** Whether a bounded read is an incremental append scan rather than a table scan. */
    public boolean isIncrementalBatch() {
        return !streaming
                && (startSnapshotId != null
                        || startTag != null
                        || endSnapshotId != null
                        || endTag != null
                        || startSnapshotTimestamp != null);
    }

    public boolean streaming() {
        return streaming;
    }

    /** The starting strategy (the default one when none was set). */
    public StreamingStartingStrategy startingStrategy() {
        return startingStrategy;
    }

    /** Whether the user chose the starting strategy (else a bare start is exclusive). */
    public boolean startingStrategyExplicit() {
        return startingStrategyExplicit;
    }

    public Duration monitorInterval() {
        return monitorInterval;
    }

    public boolean includeColumnStats() {
        return includeColumnStats;
    }

    public int maxPlanningSnapshotCount() {
        return maxPlanningSnapshotCount;
    }

    /** The most rows the source emits in total (one reader reads a limited source); -1 for none. */
    public long limit() {
        return limit;
    }

    public int maxAllowedPlanningFailures() {
        return maxAllowedPlanningFailures;
    }

    public String watermarkColumn() {
        return watermarkColumn;
    }

    public TimeUnit watermarkColumnTimeUnit() {
        return watermarkColumnTimeUnit;
    }

    /** The JSON name mapping to read files without field ids with, or {@code null}. */
    public String nameMapping() {
        return nameMapping;
    }

    /** The planning thread count, or {@code null} for Iceberg's shared worker pool. */
    public Integer planParallelism() {
        return planParallelism;
    }

    /** The most pending splits of a paged full scan; -1 when full scans are not paged. */
    public int splitPlanningPageSize() {
        return splitPlanningPageSize;
    }

    public boolean skipOverwriteSnapshots() {
        return skipOverwriteSnapshots;
    }

    public boolean skipDeleteSnapshots() {
        return skipDeleteSnapshots;
    }

    public long splitSize() {
        return splitSize;
    }

    public int splitLookback() {
        return splitLookback;
    }

    public long splitOpenFileCost() {
        return splitOpenFileCost;
    }

    /**
     * Whether a bounded read with fewer splits than readers may plan smaller splits: the option (or
     * table property) is on and the split size was not set for this read.
     */
    public boolean adaptiveSplitSize() {
        return adaptiveSplitSize;
    }

    /** The table's current schema when the source was built. */
    public Schema tableSchema() {
        return tableSchema;
    }

    /**
     * The schema readers produce: the projection (table fields in the order requested), or the
     * table schema when there is none.
     */
    public Schema projectedSchema() {
        return projectedSchema == null ? tableSchema : projectedSchema;
    }

    /** The Iceberg filters; they prune files in planning and are residuals while reading. */
    public List<Expression> filters() {
        return filters;
    }
}
