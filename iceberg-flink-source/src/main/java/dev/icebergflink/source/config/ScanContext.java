package dev.icebergflink.source.config;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionResolver;
import dev.icebergflink.options.OptionSource;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.source.ChangelogReadMode;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.StreamingStartingStrategy;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Types;

/**
 * The read plan of one Iceberg source: every read option resolved and validated, the schema read
 * and the projection, filters and limit.
 *
 * <p>It exists so that options are resolved once. The Java builder and the SQL source only collect
 * settings; {@link #resolve} applies the option precedence ({@link OptionResolver}: explicit, Flink
 * configuration {@code connector.iceberg.*}, table property, default) and rejects contradictions
 * with messages that name the options ({@link ScanContextValidation}). Planning, enumerators and
 * readers read their settings from here and never from the raw options. What a SQL query pushes
 * down after the options were resolved (projection, filters, limit, watermark column, case
 * sensitivity) derives a new plan with the {@code with..} methods, which validate only what they
 * change.
 *
 * <p>Immutable and serializable: it travels inside the source to the JobManager and TaskManagers;
 * it is never part of checkpointed state.
 */
@Internal
public final class ScanContext implements Serializable {

    private static final long serialVersionUID = 1L;

    private final ResolvedReadOptions options;
    private final boolean caseSensitive;
    private final long limit;
    private final String watermarkColumn;
    private final Set<String> explicitKeys;
    private final Schema tableSchema;
    private final Schema requestedProjection;
    private final Schema projectedSchema;
    private final List<Expression> filters;

    private ScanContext(
            ResolvedReadOptions options, Set<String> explicit, Schema tableSchema, Query query) {
        this.options = options;
        this.explicitKeys = Set.copyOf(explicit);
        this.tableSchema = tableSchema;
        this.caseSensitive = query.caseSensitive();
        this.limit = query.limit();
        this.watermarkColumn = query.watermarkColumn();
        this.filters = List.copyOf(query.filters());
        this.requestedProjection = query.projection();
        this.projectedSchema = project(tableSchema, requestedProjection, caseSensitive);
    }

    /** The part of a plan that a query may change after the options were resolved. */
    private record Query(
            boolean caseSensitive,
            Schema projection,
            List<Expression> filters,
            long limit,
            String watermarkColumn) {}

    /**
     * Resolves and validates the read plan of {@code table}; the one place where raw options become
     * values.
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
        OptionResolver options = new OptionResolver(explicit, flinkConf, table.properties());
        Set<String> explicitKeys =
                FlinkReadOptions.ALL.stream()
                        .filter(option -> options.sourceOf(option) == OptionSource.OPTION)
                        .map(ConnectorOption::key)
                        .collect(Collectors.toSet());
        Query query =
                new Query(
                        options.get(FlinkReadOptions.CASE_SENSITIVE),
                        projection,
                        filters == null ? List.of() : filters,
                        options.get(FlinkReadOptions.LIMIT),
                        options.get(FlinkReadOptions.WATERMARK_COLUMN));
        ResolvedReadOptions values = ResolvedReadOptions.from(options);
        Schema tableSchema = ReadSchemas.readSchema(table, values.snapshotId(), values.tag());
        ScanContext plan = new ScanContext(values, explicitKeys, tableSchema, query);
        ScanContextValidation.validate(plan, table);
        return plan;
    }

    private static Schema project(Schema tableSchema, Schema projection, boolean caseSensitive) {
        return projection == null
                ? null
                : ReadSchemas.project(tableSchema, projection, caseSensitive);
    }

    private ScanContext derive(Query query) {
        ScanContext derived = new ScanContext(options, explicitKeys, tableSchema, query);
        ScanContextValidation.validateQuery(derived);
        return derived;
    }

    private Query query() {
        return new Query(caseSensitive, requestedProjection, filters, limit, watermarkColumn);
    }

    /** This plan matching column names with or without case. */
    public ScanContext withCaseSensitive(boolean matchCase) {
        Query q = query();
        return derive(
                new Query(matchCase, q.projection(), q.filters(), q.limit(), q.watermarkColumn()));
    }

    /** This plan reading only these top-level columns ({@code null}: all), in this order. */
    public ScanContext withProjection(Schema projection) {
        Query q = query();
        return derive(
                new Query(
                        q.caseSensitive(),
                        projection,
                        q.filters(),
                        q.limit(),
                        q.watermarkColumn()));
    }

    /** This plan with these Iceberg filters instead of its own. */
    public ScanContext withFilters(List<Expression> expressions) {
        Query q = query();
        return derive(
                new Query(
                        q.caseSensitive(),
                        q.projection(),
                        expressions,
                        q.limit(),
                        q.watermarkColumn()));
    }

    /** This plan emitting at most {@code rows} rows (-1: no limit). */
    public ScanContext withLimit(long rows) {
        Query q = query();
        return derive(
                new Query(
                        q.caseSensitive(), q.projection(), q.filters(), rows, q.watermarkColumn()));
    }

    /**
     * This plan ordering splits by, and emitting watermarks of, this column ({@code null}: none).
     */
    public ScanContext withWatermarkColumn(String column) {
        Query q = query();
        return derive(new Query(q.caseSensitive(), q.projection(), q.filters(), q.limit(), column));
    }

    /**
     * This plan reading exactly the snapshot {@code id} of the table, with the table schema it
     * already has (the schema of the table's current state, which the pinned snapshot is when SQL
     * pins the snapshot of a row-level {@code DELETE}/{@code UPDATE}).
     *
     * @throws IllegalArgumentException when the plan already reads another snapshot, tag, branch,
     *     timestamp or range, or reads a stream
     */
    public ScanContext withSnapshotId(long id) {
        if (options.streaming()
                || (options.snapshotId() != null && options.snapshotId() != id)
                || options.tag() != null
                || options.branch() != null
                || options.asOfTimestamp() != null
                || options.startSnapshotId() != null
                || options.startSnapshotTimestamp() != null
                || options.endSnapshotId() != null
                || options.startTag() != null
                || options.endTag() != null) {
            throw new IllegalArgumentException(
                    "the read options select another snapshot or a stream (options '"
                            + FlinkReadOptions.SNAPSHOT_ID.key()
                            + "', 'tag', 'branch', 'as-of-timestamp', 'start-*', 'end-*',"
                            + " 'streaming'); remove them to read the current snapshot");
        }
        ScanContext derived =
                new ScanContext(options.withSnapshotId(id), explicitKeys, tableSchema, query());
        ScanContextValidation.validateQuery(derived);
        return derived;
    }

    /**
     * Whether the option was set explicitly (builder call, SQL hint or {@code WITH} option), not
     * taken from the Flink configuration, a table property or its default.
     */
    public boolean isExplicit(ConnectorOption<?> option) {
        return explicitKeys.contains(option.key());
    }

    /** What kind of read this is, and so which enumerator plans it. */
    public ReadMode mode() {
        return ReadMode.of(this);
    }

    /** The table column with this name, honouring {@link #caseSensitive()}. */
    public Optional<Types.NestedField> findColumn(String name) {
        return Optional.ofNullable(ReadSchemas.find(tableSchema, name, caseSensitive));
    }

    public boolean caseSensitive() {
        return caseSensitive;
    }

    public Long snapshotId() {
        return options.snapshotId();
    }

    public String tag() {
        return options.tag();
    }

    public String branch() {
        return options.branch();
    }

    public Long asOfTimestamp() {
        return options.asOfTimestamp();
    }

    public Long startSnapshotId() {
        return options.startSnapshotId();
    }

    public Long startSnapshotTimestamp() {
        return options.startSnapshotTimestamp();
    }

    public Long endSnapshotId() {
        return options.endSnapshotId();
    }

    public String startTag() {
        return options.startTag();
    }

    public String endTag() {
        return options.endTag();
    }

    public boolean streaming() {
        return options.streaming();
    }

    /** The starting strategy (the default one when none was set). */
    public StreamingStartingStrategy startingStrategy() {
        return options.startingStrategy();
    }

    /** Whether the user chose the starting strategy (else a bare start is exclusive). */
    public boolean startingStrategyExplicit() {
        return options.startingStrategyExplicit();
    }

    public Duration monitorInterval() {
        return options.monitorInterval();
    }

    public boolean includeColumnStats() {
        return options.includeColumnStats();
    }

    public int maxPlanningSnapshotCount() {
        return options.maxPlanningSnapshotCount();
    }

    /** The most rows the source emits in total (one reader reads a limited source); -1 for none. */
    public long limit() {
        return limit;
    }

    public int maxAllowedPlanningFailures() {
        return options.maxAllowedPlanningFailures();
    }

    public String watermarkColumn() {
        return watermarkColumn;
    }

    public TimeUnit watermarkColumnTimeUnit() {
        return options.watermarkColumnTimeUnit();
    }

    /** The JSON name mapping to read files without field ids with, or {@code null}. */
    public String nameMapping() {
        return options.nameMapping();
    }

    /** The planning thread count, or {@code null} for Iceberg's shared worker pool. */
    public Integer planParallelism() {
        return options.planParallelism();
    }

    /** The most pending splits of a paged full scan; -1 when full scans are not paged. */
    public int splitPlanningPageSize() {
        return options.splitPlanningPageSize();
    }

    public boolean skipOverwriteSnapshots() {
        return options.skipOverwriteSnapshots();
    }

    public boolean skipDeleteSnapshots() {
        return options.skipDeleteSnapshots();
    }

    /** Which changes the read emits ({@code changelog-mode}). */
    public ChangelogReadMode changelogMode() {
        return options.changelogMode();
    }

    /** Whether the read emits every change with its row kind ({@code changelog-mode} = all). */
    public boolean readsChangelog() {
        return options.changelogMode() == ChangelogReadMode.ALL;
    }

    public long splitSize() {
        return options.splitSize();
    }

    public int splitLookback() {
        return options.splitLookback();
    }

    public long splitOpenFileCost() {
        return options.splitOpenFileCost();
    }

    /**
     * Whether a bounded read with fewer splits than readers may plan smaller splits: the option (or
     * table property) is on and the split size was not set for this read.
     */
    public boolean adaptiveSplitSize() {
        return options.adaptiveSplitSize();
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

    @Override
    public String toString() {
        return "ScanContext{mode="
                + mode()
                + ", streaming="
                + options.streaming()
                + ", limit="
                + limit
                + ", filters="
                + filters
                + "}";
    }
}
