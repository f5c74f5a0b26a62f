package dev.icebergflink.source;

import dev.icebergflink.TableLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * The read settings both source builders collect ({@link IcebergSource.Builder} and {@link
 * FlinkSource.Builder}): the table, the projection, the filters and the read options by key.
 *
 * <p>It exists so that each named setter is written once. Every named setter is a shortcut for
 * {@link #set(String, String)} with the matching {@link FlinkReadOptions} key; the last call for a
 * key wins, and {@code null} clears a key. Nothing is checked here: the options are resolved and
 * validated once, against the table, when the source is built.
 *
 * @param <B> the builder type the setters return
 */
abstract class ReadOptionSetters<B extends ReadOptionSetters<B>> {

    final Map<String, String> options = new HashMap<>();
    final List<Expression> filters = new ArrayList<>();
    TableLoader tableLoader;
    Table table;
    Schema projection;

    ReadOptionSetters() {}

    /** This builder, for chaining. */
    abstract B self();

    /** Hands the settings collected here to another builder. */
    void copyTo(ReadOptionSetters<?> other) {
        other.options.putAll(options);
        other.filters.clear();
        other.filters.addAll(filters);
        other.tableLoader = tableLoader;
        other.table = table;
        other.projection = projection;
    }

    /** The table to read (required). */
    public B tableLoader(TableLoader loader) {
        this.tableLoader = loader;
        return self();
    }

    /**
     * A table already loaded, for building the source without loading it again: {@code build()}
     * resolves the options, the projection and the splits' file access ({@code io()}, encryption)
     * against this table as it is then, instead of loading the table once through the loader. It
     * must be the table the loader loads, because the loader is still required: the enumerator
     * loads the table through it on the JobManager, and again for every planning round of a
     * streaming read, so it always plans with current metadata. The table itself is not part of the
     * built source (only what is taken from it, e.g. its serializable file IO), so any {@link
     * Table} works, also one bound to a catalog client. {@code null} clears it.
     */
    public B table(Table table) {
        this.table = table;
        return self();
    }

    /** Sets any read option by key ({@link FlinkReadOptions}); unknown keys fail in build. */
    public B set(String key, String value) {
        options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key));
        return self();
    }

    /** Sets read options by key; see {@link #set}. */
    public B setAll(Map<String, String> values) {
        values.forEach(this::set);
        return self();
    }

    private B set(String key, Object value) {
        if (value == null) {
            options.remove(key);
        } else {
            options.put(key, value.toString());
        }
        return self();
    }

    /** Whether the read is unbounded ({@code streaming}). */
    public B streaming(boolean streaming) {
        return set(FlinkReadOptions.STREAMING.key(), streaming);
    }

    /** Which changes the read emits ({@code changelog-mode}): inserts only, or every change. */
    public B changelogMode(ChangelogReadMode mode) {
        return set(FlinkReadOptions.CHANGELOG_MODE.key(), mode == null ? null : mode.optionValue());
    }

    /** Where a streaming read starts ({@code starting-strategy}). */
    public B streamingStartingStrategy(StreamingStartingStrategy strategy) {
        return set(FlinkReadOptions.STARTING_STRATEGY.key(), strategy);
    }

    /** {@code start-snapshot-id}: exclusive unless the strategy says otherwise. */
    public B startSnapshotId(Long snapshotId) {
        return set(FlinkReadOptions.START_SNAPSHOT_ID.key(), snapshotId);
    }

    /** {@code start-snapshot-timestamp} in epoch milliseconds. */
    public B startSnapshotTimestamp(Long timestampMillis) {
        return set(FlinkReadOptions.START_SNAPSHOT_TIMESTAMP.key(), timestampMillis);
    }

    /** {@code end-snapshot-id}: inclusive end of a bounded incremental read. */
    public B endSnapshotId(Long snapshotId) {
        return set(FlinkReadOptions.END_SNAPSHOT_ID.key(), snapshotId);
    }

    /** {@code start-tag}: exclusive start of a bounded incremental read. */
    public B startTag(String tag) {
        return set(FlinkReadOptions.START_TAG.key(), tag);
    }

    /** {@code end-tag}: inclusive end of a bounded incremental read. */
    public B endTag(String tag) {
        return set(FlinkReadOptions.END_TAG.key(), tag);
    }

    /** {@code snapshot-id}: batch time travel. */
    public B snapshotId(Long snapshotId) {
        return set(FlinkReadOptions.SNAPSHOT_ID.key(), snapshotId);
    }

    /** {@code as-of-timestamp}: batch time travel, epoch milliseconds. */
    public B asOfTimestamp(Long timestampMillis) {
        return set(FlinkReadOptions.AS_OF_TIMESTAMP.key(), timestampMillis);
    }

    /** {@code branch}: read (and in streaming follow) this branch. */
    public B branch(String branch) {
        return set(FlinkReadOptions.BRANCH.key(), branch);
    }

    /** {@code tag}: batch read of a tagged snapshot. */
    public B tag(String tag) {
        return set(FlinkReadOptions.TAG.key(), tag);
    }

    /** {@code monitor-interval}: how often a streaming read looks for snapshots. */
    public B monitorInterval(Duration interval) {
        return set(
                FlinkReadOptions.MONITOR_INTERVAL.key(),
                interval == null ? null : interval.toMillis() + " ms");
    }

    /** The top-level columns to read, in this order; fields are matched by name. */
    public B project(Schema schema) {
        this.projection = schema;
        return self();
    }

    /** Iceberg filters: they prune files and are applied to every row read (residuals). */
    public B filters(List<Expression> expressions) {
        this.filters.clear();
        this.filters.addAll(expressions);
        return self();
    }

    /**
     * {@code limit}: the most rows the source emits in total.
     *
     * <p>The trade-off of an exact limit: a limited read hands every split to one reader subtask
     * and finishes the others at once, so it reads with the throughput of one subtask. Once the
     * limit is reached the read ends, in streaming mode too. The count is not checkpointed: after a
     * restore from a checkpoint, up to {@code limit} rows may be emitted again from the restored
     * positions.
     */
    public B limit(Long limit) {
        return set(FlinkReadOptions.LIMIT.key(), limit);
    }

    /** {@code split-size} in bytes. */
    public B splitSize(Long bytes) {
        return set(FlinkReadOptions.SPLIT_SIZE.key(), bytes);
    }

    /** {@code split-lookback}. */
    public B splitLookback(Integer lookback) {
        return set(FlinkReadOptions.SPLIT_LOOKBACK.key(), lookback);
    }

    /** {@code split-file-open-cost} in bytes. */
    public B splitOpenFileCost(Long bytes) {
        return set(FlinkReadOptions.SPLIT_FILE_OPEN_COST.key(), bytes);
    }

    /** {@code max-planning-snapshot-count}. */
    public B maxPlanningSnapshotCount(int count) {
        return set(FlinkReadOptions.MAX_PLANNING_SNAPSHOT_COUNT.key(), count);
    }

    /** {@code max-allowed-planning-failures} (-1: never fail). */
    public B maxAllowedPlanningFailures(int failures) {
        return set(FlinkReadOptions.MAX_ALLOWED_PLANNING_FAILURES.key(), failures);
    }

    /** {@code case-sensitive}. */
    public B caseSensitive(boolean caseSensitive) {
        return set(FlinkReadOptions.CASE_SENSITIVE.key(), caseSensitive);
    }

    /** {@code include-column-stats}. */
    public B includeColumnStats(boolean include) {
        return set(FlinkReadOptions.INCLUDE_COLUMN_STATS.key(), include);
    }

    /** {@code watermark-column}: order splits by it and emit split watermarks. */
    public B watermarkColumn(String column) {
        return set(FlinkReadOptions.WATERMARK_COLUMN.key(), column);
    }

    /** {@code watermark-column-time-unit} of a long watermark column. */
    public B watermarkColumnTimeUnit(TimeUnit unit) {
        return set(FlinkReadOptions.WATERMARK_COLUMN_TIME_UNIT.key(), unit);
    }

    /** The name mapping for files without field ids ({@code schema.name-mapping.default}). */
    public B nameMapping(NameMapping mapping) {
        return set(
                FlinkReadOptions.NAME_MAPPING.key(),
                mapping == null ? null : NameMappingParser.toJson(mapping));
    }

    /**
     * {@code split-planning-page-size}: the most pending splits a full scan is planned ahead (-1:
     * plan the whole scan at once and keep it in state).
     */
    public B splitPlanningPageSize(int splits) {
        return set(FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE.key(), splits);
    }

    /**
     * Planning threads ({@code table.exec.iceberg.worker-pool-size}) for scans that are not paged:
     * streaming increments, and full scans with {@code split-planning-page-size} = -1. Paged scans
     * plan on one thread, which keeps their split order deterministic.
     */
    public B planParallelism(int threads) {
        return set(FlinkReadOptions.PLAN_PARALLELISM.key(), threads);
    }
}
