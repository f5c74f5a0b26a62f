package dev.icebergflink.sink;

import dev.icebergflink.options.OptionResolver;
import java.io.Serializable;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.TableProperties;

/**
 * The write options of one sink, resolved against the job's Flink configuration and the table's
 * properties (option, Flink configuration, table property, default; the order and names of
 * Iceberg's own connector, so that jobs port unchanged).
 *
 * <p>It exists so that the builder validates every option once, before the job runs, and the
 * writers get plain values: the file format, the target file size, the {@link #writeProperties()
 * writer properties} (codec, level and strategy under the table-property names the format writers
 * read), the mode flags, distribution, branch, write parallelism and uid suffix. Instances are
 * immutable and serializable (they travel to the writer subtasks).
 */
@Internal
public final class FlinkWriteConf implements Serializable {

    private static final long serialVersionUID = 1L;

    private final FileFormat format;
    private final long targetFileSizeBytes;
    private final Map<String, String> writeProperties;
    private final boolean upsert;
    private final boolean upsertUniqueKeys;
    private final long upsertKeyMemoryBytes;
    private final Map<String, String> deltaWriteProperties;
    private final String upsertSpillDirectory;
    private final boolean overwrite;
    private final DistributionMode distributionMode;
    private final String branch;
    private final Integer writeParallelism;
    private final String uidSuffix;
    private final String rangeStatisticsType;
    private final double rangeSortKeyBaseWeight;
    private final Duration tableRefreshInterval;
    private final String upsertEnabledBy;
    private final MaintenanceRequest maintenance;

    private FlinkWriteConf(OptionResolver resolver, MaintenanceRequest maintenance) {
        this.maintenance = maintenance;
        this.format = FileWriteSettings.format(resolver);
        this.targetFileSizeBytes = FileWriteSettings.targetFileSizeBytes(resolver);
        this.writeProperties =
                FileWriteSettings.writeProperties(resolver, format, targetFileSizeBytes);
        this.upsert = resolver.getOptional(FlinkWriteOptions.UPSERT_ENABLED).orElse(false);
        this.upsertEnabledBy =
                FileWriteSettings.describeSource(resolver, FlinkWriteOptions.UPSERT_ENABLED);
        this.upsertUniqueKeys = resolver.get(FlinkWriteOptions.UPSERT_UNIQUE_KEYS);
        long keyMemory = resolver.get(FlinkWriteOptions.UPSERT_KEY_MEMORY).getBytes();
        if (keyMemory < 1024) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value %d bytes for option '%s': it must be at least 1 kb"
                                    + " (e.g. '64 mb')",
                            keyMemory, FlinkWriteOptions.UPSERT_KEY_MEMORY.key()));
        }
        this.upsertKeyMemoryBytes = keyMemory;
        Map<String, String> delta = new LinkedHashMap<>(writeProperties);
        delta.put(
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
                Long.toString(
                        FileWriteSettings.rowGroupSizeBytes(
                                resolver,
                                FlinkWriteOptions.UPSERT_ROW_GROUP_SIZE_BYTES,
                                FlinkWriteOptions.DEFAULT_UPSERT_ROW_GROUP_SIZE_BYTES)));
        this.deltaWriteProperties = Collections.unmodifiableMap(delta);
        String spillDirectory = resolver.get(FlinkWriteOptions.UPSERT_SPILL_DIRECTORY);
        if (spillDirectory != null && spillDirectory.isBlank()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' must name a local directory, e.g. '/tmp/iceberg'; got an"
                                    + " empty value",
                            FlinkWriteOptions.UPSERT_SPILL_DIRECTORY.key()));
        }
        this.upsertSpillDirectory = spillDirectory;
        this.overwrite = resolver.get(FlinkWriteOptions.OVERWRITE_ENABLED);
        this.distributionMode = parseDistribution(resolver);
        String branchName = resolver.get(FlinkWriteOptions.BRANCH);
        if (branchName == null || branchName.isBlank()) {
            throw new IllegalArgumentException(
                    "Option 'branch' must name a branch, e.g. 'main'; got an empty value");
        }
        this.branch = branchName;
        Integer parallelism =
                resolver.getOptional(FlinkWriteOptions.WRITE_PARALLELISM).orElse(null);
        if (parallelism != null && parallelism <= 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value %d for option 'write-parallelism': it must be a"
                                    + " positive number of writer subtasks",
                            parallelism));
        }
        this.writeParallelism = parallelism;
        String suffix = resolver.get(FlinkWriteOptions.UID_SUFFIX);
        this.uidSuffix = suffix == null ? "" : suffix;
        this.rangeStatisticsType = parseStatisticsType(resolver);
        double baseWeight = resolver.get(FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT);
        if (!(baseWeight >= 0) || Double.isInfinite(baseWeight)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value %s for option '%s': it must be a finite number >= 0"
                                    + " (a fraction of one writer's share, e.g. 0.01)",
                            baseWeight,
                            FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key()));
        }
        this.rangeSortKeyBaseWeight = baseWeight;
        Duration refresh =
                resolver.getOptional(FlinkWriteOptions.TABLE_REFRESH_INTERVAL).orElse(null);
        if (refresh != null && (refresh.isNegative() || refresh.isZero())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value %s for option '%s': it must be a positive duration,"
                                    + " e.g. '1 min'",
                            refresh, FlinkWriteOptions.TABLE_REFRESH_INTERVAL.key()));
        }
        this.tableRefreshInterval = refresh;
    }

    private FlinkWriteConf(FlinkWriteConf other, boolean overwrite) {
        this.format = other.format;
        this.targetFileSizeBytes = other.targetFileSizeBytes;
        this.writeProperties = other.writeProperties;
        this.upsert = other.upsert;
        this.upsertEnabledBy = other.upsertEnabledBy;
        this.upsertUniqueKeys = other.upsertUniqueKeys;
        this.upsertKeyMemoryBytes = other.upsertKeyMemoryBytes;
        this.deltaWriteProperties = other.deltaWriteProperties;
        this.upsertSpillDirectory = other.upsertSpillDirectory;
        this.overwrite = overwrite;
        this.distributionMode = other.distributionMode;
        this.branch = other.branch;
        this.writeParallelism = other.writeParallelism;
        this.uidSuffix = other.uidSuffix;
        this.rangeStatisticsType = other.rangeStatisticsType;
        this.rangeSortKeyBaseWeight = other.rangeSortKeyBaseWeight;
        this.tableRefreshInterval = other.tableRefreshInterval;
        this.maintenance = other.maintenance;
    }

    /**
     * A copy with overwrite mode set, for callers that learn about overwrite after resolving the
     * options (SQL's {@code INSERT OVERWRITE} is known only when the statement is planned).
     */
    public FlinkWriteConf withOverwrite(boolean enabled) {
        return enabled == overwrite ? this : new FlinkWriteConf(this, enabled);
    }

    private static String parseStatisticsType(OptionResolver resolver) {
        String value = resolver.get(FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE);
        String normalized = value == null ? "auto" : value.trim().toLowerCase(Locale.ROOT);
        switch (normalized) {
            case "map":
                return "Map";
            case "sketch":
                return "Sketch";
            case "auto":
                return "Auto";
            default:
                throw new IllegalArgumentException(
                        String.format(
                                "Invalid value '%s' for option '%s': allowed values are Map,"
                                        + " Sketch, Auto",
                                value, FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key()));
        }
    }

    /**
     * The range statistics type (Map, Sketch or Auto). All three use the same statistics: a bounded
     * reservoir sample per statistics subtask and checkpoint, weighted by the subtask's record
     * count; see {@code DistributionTopology}.
     */
    public String rangeStatisticsType() {
        return rangeStatisticsType;
    }

    /** The extra weight of every distinct range key, as a fraction of one writer's share. */
    public double rangeSortKeyBaseWeight() {
        return rangeSortKeyBaseWeight;
    }

    /** How often writers look for a new schema or spec of their table; null for never. */
    public Duration tableRefreshInterval() {
        return tableRefreshInterval;
    }

    /**
     * Resolves the write options.
     *
     * @param options explicit options (builder {@code set} calls, hints, {@code WITH} options)
     * @param flinkConf the job's Flink configuration, or null for none
     * @param tableProperties the table's properties
     * @throws IllegalArgumentException naming the option, the source and the allowed values when a
     *     value is invalid
     */
    public static FlinkWriteConf resolve(
            Map<String, String> options,
            ReadableConfig flinkConf,
            Map<String, String> tableProperties) {
        OptionResolver resolver = new OptionResolver(options, flinkConf, tableProperties);
        return new FlinkWriteConf(
                resolver, MaintenanceRequest.resolve(resolver, options, flinkConf));
    }

    /** The table maintenance to run after the sink's commits. */
    public MaintenanceRequest maintenance() {
        return maintenance;
    }

    /** The format of data and delete files. */
    public FileFormat format() {
        return format;
    }

    /** The size at which files are rolled. */
    public long targetFileSizeBytes() {
        return targetFileSizeBytes;
    }

    /**
     * Writer properties that override the table's: format, target size, and the compression
     * settings that were set by an option or the Flink configuration, under the table-property
     * names the format writers read.
     */
    public Map<String, String> writeProperties() {
        return writeProperties;
    }

    /**
     * The writer properties of writers that write rows and deletes (upsert mode and changelogs):
     * {@link #writeProperties()} with the Parquet row group size of {@link
     * FlinkWriteOptions#UPSERT_ROW_GROUP_SIZE_BYTES}, since such a writer holds a data file, its
     * delete files and its keys in memory at once; appends keep the table's row group size.
     *
     * @param appendsOnly whether the writers only append (then this is {@link #writeProperties()})
     */
    public Map<String, String> writeProperties(boolean appendsOnly) {
        return appendsOnly ? writeProperties : deltaWriteProperties;
    }

    /** Whether upsert mode is on. */
    public boolean upsert() {
        return upsert;
    }

    /**
     * Where upsert mode was set, for messages: e.g. {@code option 'upsert-enabled'} or {@code table
     * property 'write.upsert.enabled'}.
     */
    public String upsertEnabledBy() {
        return upsertEnabledBy;
    }

    /**
     * Whether the input promises at most one change per equality key ({@link
     * FlinkWriteOptions#UPSERT_UNIQUE_KEYS}).
     */
    public boolean upsertUniqueKeys() {
        return upsertUniqueKeys;
    }

    /**
     * Memory per writer subtask for the keys of a batch upsert ({@link
     * FlinkWriteOptions#UPSERT_KEY_MEMORY}).
     */
    public long upsertKeyMemoryBytes() {
        return upsertKeyMemoryBytes;
    }

    /**
     * Where batch upsert keys spill to, or null for the TaskManager's {@code java.io.tmpdir}
     * ({@link FlinkWriteOptions#UPSERT_SPILL_DIRECTORY}).
     */
    public String upsertSpillDirectory() {
        return upsertSpillDirectory;
    }

    /** Whether overwrite mode is on. */
    public boolean overwrite() {
        return overwrite;
    }

    /** How rows are distributed to the writers. */
    public DistributionMode distributionMode() {
        return distributionMode;
    }

    /** The branch commits go to. */
    public String branch() {
        return branch;
    }

    /** The writer parallelism, or null to use the input's. */
    public Integer writeParallelism() {
        return writeParallelism;
    }

    /** The uid suffix; empty means "use the table name". */
    public String uidSuffix() {
        return uidSuffix;
    }

    @Override
    public String toString() {
        return "FlinkWriteConf{format="
                + format
                + ", targetFileSizeBytes="
                + targetFileSizeBytes
                + ", writeProperties="
                + writeProperties
                + ", deltaWriteProperties="
                + deltaWriteProperties
                + ", upsert="
                + upsert
                + (upsertUniqueKeys ? ", upsertUniqueKeys=true" : "")
                + ", upsertKeyMemoryBytes="
                + upsertKeyMemoryBytes
                + (upsertSpillDirectory != null
                        ? ", upsertSpillDirectory=" + upsertSpillDirectory
                        : "")
                + ", overwrite="
                + overwrite
                + ", distributionMode="
                + distributionMode
                + ", branch="
                + branch
                + ", writeParallelism="
                + writeParallelism
                + ", uidSuffix="
                + uidSuffix
                + (maintenance.enabled() ? ", maintenance=" + maintenance.enabledTasks() : "")
                + (tableRefreshInterval != null
                        ? ", tableRefreshInterval=" + tableRefreshInterval
                        : "")
                + (distributionMode == DistributionMode.RANGE
                        ? ", rangeStatisticsType="
                                + rangeStatisticsType
                                + ", rangeSortKeyBaseWeight="
                                + rangeSortKeyBaseWeight
                        : "")
                + "}";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlinkWriteConf that)) {
            return false;
        }
        return targetFileSizeBytes == that.targetFileSizeBytes
                && upsert == that.upsert
                && upsertUniqueKeys == that.upsertUniqueKeys
                && upsertKeyMemoryBytes == that.upsertKeyMemoryBytes
                && Objects.equals(upsertSpillDirectory, that.upsertSpillDirectory)
                && overwrite == that.overwrite
                && format == that.format
                && writeProperties.equals(that.writeProperties)
                && deltaWriteProperties.equals(that.deltaWriteProperties)
                && distributionMode == that.distributionMode
                && branch.equals(that.branch)
                && Objects.equals(writeParallelism, that.writeParallelism)
                && uidSuffix.equals(that.uidSuffix)
                && rangeStatisticsType.equals(that.rangeStatisticsType)
                && rangeSortKeyBaseWeight == that.rangeSortKeyBaseWeight
                && Objects.equals(tableRefreshInterval, that.tableRefreshInterval)
                && maintenance.equals(that.maintenance);
    }

    @Override
    public int hashCode() {
        return Objects.hash(format, targetFileSizeBytes, writeProperties, upsert, overwrite);
    }

    private static DistributionMode parseDistribution(OptionResolver resolver) {
        String value = resolver.getOptional(FlinkWriteOptions.DISTRIBUTION_MODE).orElse("none");
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "none":
                return DistributionMode.NONE;
            case "hash":
                return DistributionMode.HASH;
            case "range":
                return DistributionMode.RANGE;
            default:
                throw new IllegalArgumentException(
                        String.format(
                                "Invalid value '%s' for option '%s' (set by %s): allowed values"
                                        + " are none, hash, range",
                                value,
                                FlinkWriteOptions.DISTRIBUTION_MODE.key(),
                                FileWriteSettings.describeSource(
                                        resolver, FlinkWriteOptions.DISTRIBUTION_MODE)));
        }
    }
}
