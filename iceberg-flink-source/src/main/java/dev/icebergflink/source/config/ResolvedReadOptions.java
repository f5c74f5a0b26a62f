package dev.icebergflink.source.config;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionResolver;
import dev.icebergflink.options.OptionSource;
import dev.icebergflink.source.ChangelogReadMode;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.StreamingStartingStrategy;
import java.io.Serializable;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.TableProperties;

/**
 * The read options of a plan as values, each taken from its first source (explicit, Flink
 * configuration, table property, default); see {@link ScanContext} for what each means.
 *
 * <p>It exists to keep the option values apart from the parts of a plan a query may change later
 * (projection, filters, limit, watermark column, case sensitivity), so that a derived plan shares
 * them as they were resolved.
 */
record ResolvedReadOptions(
        Long snapshotId,
        String tag,
        String branch,
        Long asOfTimestamp,
        Long startSnapshotId,
        Long startSnapshotTimestamp,
        Long endSnapshotId,
        String startTag,
        String endTag,
        boolean streaming,
        StreamingStartingStrategy startingStrategy,
        boolean startingStrategyExplicit,
        Duration monitorInterval,
        boolean includeColumnStats,
        int maxPlanningSnapshotCount,
        int maxAllowedPlanningFailures,
        TimeUnit watermarkColumnTimeUnit,
        String nameMapping,
        Integer planParallelism,
        int splitPlanningPageSize,
        boolean skipOverwriteSnapshots,
        boolean skipDeleteSnapshots,
        long splitSize,
        int splitLookback,
        long splitOpenFileCost,
        boolean adaptiveSplitSize,
        ChangelogReadMode changelogMode)
        implements Serializable {

    /** Reads every option from {@code options}, once. */
    static ResolvedReadOptions from(OptionResolver options) {
        Long snapshotId = options.get(FlinkReadOptions.SNAPSHOT_ID);
        String tag = options.get(FlinkReadOptions.TAG);
        String branch = options.get(FlinkReadOptions.BRANCH);
        Long asOfTimestamp = options.get(FlinkReadOptions.AS_OF_TIMESTAMP);
        Long startSnapshotId = options.get(FlinkReadOptions.START_SNAPSHOT_ID);
        Long startSnapshotTimestamp = options.get(FlinkReadOptions.START_SNAPSHOT_TIMESTAMP);
        Long endSnapshotId = options.get(FlinkReadOptions.END_SNAPSHOT_ID);
        String startTag = options.get(FlinkReadOptions.START_TAG);
        String endTag = options.get(FlinkReadOptions.END_TAG);
        boolean streaming = options.get(FlinkReadOptions.STREAMING);
        StreamingStartingStrategy startingStrategy =
                options.get(FlinkReadOptions.STARTING_STRATEGY);
        boolean startingStrategyExplicit =
                options.sourceOf(FlinkReadOptions.STARTING_STRATEGY) != OptionSource.DEFAULT;
        Duration monitorInterval = options.get(FlinkReadOptions.MONITOR_INTERVAL);
        boolean includeColumnStats = options.get(FlinkReadOptions.INCLUDE_COLUMN_STATS);
        int maxPlanningSnapshotCount = options.get(FlinkReadOptions.MAX_PLANNING_SNAPSHOT_COUNT);
        int maxAllowedPlanningFailures =
                options.get(FlinkReadOptions.MAX_ALLOWED_PLANNING_FAILURES);
        TimeUnit watermarkColumnTimeUnit = options.get(FlinkReadOptions.WATERMARK_COLUMN_TIME_UNIT);
        String nameMapping = options.get(FlinkReadOptions.NAME_MAPPING);
        Integer planParallelism = options.get(FlinkReadOptions.PLAN_PARALLELISM);
        int splitPlanningPageSize = options.get(FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE);
        boolean skipOverwriteSnapshots =
                options.get(FlinkReadOptions.STREAMING_SKIP_OVERWRITE_SNAPSHOTS);
        boolean skipDeleteSnapshots = options.get(FlinkReadOptions.STREAMING_SKIP_DELETE_SNAPSHOTS);
        long splitSize =
                orDefault(options, FlinkReadOptions.SPLIT_SIZE, TableProperties.SPLIT_SIZE_DEFAULT);
        int splitLookback =
                orDefault(
                        options,
                        FlinkReadOptions.SPLIT_LOOKBACK,
                        TableProperties.SPLIT_LOOKBACK_DEFAULT);
        OptionSource splitSizeSource = options.sourceOf(FlinkReadOptions.SPLIT_SIZE);
        boolean adaptiveSplitSize =
                orDefault(
                                options,
                                FlinkReadOptions.ADAPTIVE_SPLIT_SIZE,
                                TableProperties.ADAPTIVE_SPLIT_SIZE_ENABLED_DEFAULT)
                        && splitSizeSource != OptionSource.OPTION
                        && splitSizeSource != OptionSource.FLINK_CONFIGURATION;
        long splitOpenFileCost =
                orDefault(
                        options,
                        FlinkReadOptions.SPLIT_FILE_OPEN_COST,
                        TableProperties.SPLIT_OPEN_FILE_COST_DEFAULT);
        ChangelogReadMode changelogMode =
                ChangelogReadMode.fromOptionValue(options.get(FlinkReadOptions.CHANGELOG_MODE));
        return new ResolvedReadOptions(
                snapshotId,
                tag,
                branch,
                asOfTimestamp,
                startSnapshotId,
                startSnapshotTimestamp,
                endSnapshotId,
                startTag,
                endTag,
                streaming,
                startingStrategy,
                startingStrategyExplicit,
                monitorInterval,
                includeColumnStats,
                maxPlanningSnapshotCount,
                maxAllowedPlanningFailures,
                watermarkColumnTimeUnit,
                nameMapping,
                planParallelism,
                splitPlanningPageSize,
                skipOverwriteSnapshots,
                skipDeleteSnapshots,
                splitSize,
                splitLookback,
                splitOpenFileCost,
                adaptiveSplitSize,
                changelogMode);
    }

    /**
     * These options reading exactly {@code id} (a batch read of that snapshot): the statement-level
     * pin of row-level {@code DELETE}/{@code UPDATE}, whose writes are validated against commits
     * made after the snapshot they read.
     */
    ResolvedReadOptions withSnapshotId(long id) {
        return new ResolvedReadOptions(
                id,
                tag,
                branch,
                asOfTimestamp,
                startSnapshotId,
                startSnapshotTimestamp,
                endSnapshotId,
                startTag,
                endTag,
                streaming,
                startingStrategy,
                startingStrategyExplicit,
                monitorInterval,
                includeColumnStats,
                maxPlanningSnapshotCount,
                maxAllowedPlanningFailures,
                watermarkColumnTimeUnit,
                nameMapping,
                planParallelism,
                splitPlanningPageSize,
                skipOverwriteSnapshots,
                skipDeleteSnapshots,
                splitSize,
                splitLookback,
                splitOpenFileCost,
                adaptiveSplitSize,
                changelogMode);
    }

    private static <T> T orDefault(OptionResolver options, ConnectorOption<T> option, T fallback) {
        return options.getOptional(option).orElse(fallback);
    }
}
