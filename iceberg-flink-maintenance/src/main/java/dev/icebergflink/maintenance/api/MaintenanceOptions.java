package dev.icebergflink.maintenance.api;

import dev.icebergflink.options.ConnectorOption;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The settings of table maintenance after the sink's commits ({@code IcebergSink.Builder
 * .compaction(true)}, {@code rewriteDataFiles(...)}, the write option {@code compaction-enabled}),
 * under the prefix {@code flink-maintenance.}: usable as sink options, SQL hints, {@code WITH}
 * options and Flink configuration keys, with the names Iceberg's own connector documents.
 *
 * <p>A task runs when ANY of its {@code schedule.*} thresholds is reached. The tasks themselves are
 * switched on by the sink's write options {@code flink-maintenance.rewrite.enabled} (alias {@code
 * compaction-enabled}), {@code flink-maintenance.expire-snapshots.enabled} and {@code
 * flink-maintenance.delete-orphan-files.enabled}.
 */
@PublicEvolving
public final class MaintenanceOptions {

    /** The prefix of every maintenance setting. */
    public static final String PREFIX = "flink-maintenance.";

    private MaintenanceOptions() {}

    // ---- the topology

    public static final ConnectorOption<Long> RATE_LIMIT_SECONDS =
            longOption(
                    "rate-limit-seconds",
                    60L,
                    "The least time in seconds between two maintenance runs.");

    public static final ConnectorOption<Long> LOCK_CHECK_DELAY_SECONDS =
            longOption(
                    "lock-check-delay-seconds",
                    30L,
                    "How long in seconds to wait before asking again for a lock another job"
                            + " holds.");

    public static final ConnectorOption<Integer> PARALLELISM =
            intOption(
                    "parallelism",
                    null,
                    "The parallelism of the maintenance tasks' parallel work; default: the job's.");

    public static final ConnectorOption<String> SLOT_SHARING_GROUP =
            stringOption(
                    "slot-sharing-group",
                    null,
                    "The slot sharing group of the maintenance operators; default: Flink's.");

    public static final ConnectorOption<String> LOCK_TYPE =
            stringOption(
                    "lock.type",
                    null,
                    "The lock that keeps maintenance runs of the table apart: unset or empty for the"
                            + " job's"
                            + " own lock on its JobManager (enough when no other job maintains the"
                            + " table), 'jdbc' for a lock in a database shared by jobs.");

    public static final ConnectorOption<String> LOCK_ID =
            stringOption(
                    "lock.lock-id",
                    null,
                    "The name of the shared lock; every job maintaining the table must use the"
                            + " same one. Default: the table's name.");

    public static final ConnectorOption<String> LOCK_JDBC_URI =
            stringOption(
                    "lock.jdbc.uri", null, "The JDBC URL of the lock database (lock.type 'jdbc').");

    public static final ConnectorOption<String> LOCK_JDBC_USER =
            stringOption("lock.jdbc.user", null, "The user of the lock database.");

    public static final ConnectorOption<String> LOCK_JDBC_PASSWORD =
            stringOption("lock.jdbc.password", null, "The password of the lock database.");

    public static final ConnectorOption<Boolean> LOCK_JDBC_INIT_LOCK_TABLE =
            booleanOption(
                    "lock.jdbc.init-lock-table",
                    true,
                    "Whether the lock table is created when it does not exist.");

    // ---- RewriteDataFiles

    public static final ConnectorOption<Integer> REWRITE_SCHEDULE_COMMIT_COUNT =
            intOption(
                    "rewrite.schedule.commit-count",
                    10,
                    "Compact after this many commits since the last compaction.");

    public static final ConnectorOption<Integer> REWRITE_SCHEDULE_DATA_FILE_COUNT =
            intOption(
                    "rewrite.schedule.data-file-count",
                    1000,
                    "Compact after commits added this many data files.");

    public static final ConnectorOption<Long> REWRITE_SCHEDULE_DATA_FILE_SIZE =
            longOption(
                    "rewrite.schedule.data-file-size",
                    100L * 1024 * 1024 * 1024,
                    "Compact after commits added this many bytes of data files.");

    public static final ConnectorOption<Long> REWRITE_SCHEDULE_INTERVAL_SECOND =
            longOption(
                    "rewrite.schedule.interval-second",
                    600L,
                    "Compact when this many seconds passed since the last compaction.");

    public static final ConnectorOption<Long> REWRITE_MAX_BYTES =
            longOption(
                    "rewrite.max-bytes",
                    null,
                    "The most bytes one compaction rewrites; larger backlogs take several runs.");

    public static final ConnectorOption<Long> REWRITE_TARGET_FILE_SIZE_BYTES =
            longOption(
                    "rewrite.target-file-size-bytes",
                    null,
                    "The size of compacted files; default: the table's"
                            + " write.target-file-size-bytes.");

    public static final ConnectorOption<Long> REWRITE_MIN_FILE_SIZE_BYTES =
            longOption(
                    "rewrite.min-file-size-bytes",
                    null,
                    "Files smaller than this are compacted; default: 75% of the target size.");

    public static final ConnectorOption<Long> REWRITE_MAX_FILE_SIZE_BYTES =
            longOption(
                    "rewrite.max-file-size-bytes",
                    null,
                    "Files larger than this are split; default: 180% of the target size.");

    public static final ConnectorOption<Integer> REWRITE_MIN_INPUT_FILES =
            intOption(
                    "rewrite.min-input-files",
                    null,
                    "A partition is compacted only when at least this many of its files qualify"
                            + " (default 5).");

    public static final ConnectorOption<Integer> REWRITE_DELETE_FILE_THRESHOLD =
            intOption(
                    "rewrite.delete-file-threshold",
                    null,
                    "Files with at least this many delete files are rewritten whatever their"
                            + " size.");

    public static final ConnectorOption<Boolean> REWRITE_ALL =
            booleanOption("rewrite.rewrite-all", false, "Rewrite every file, whatever its size.");

    public static final ConnectorOption<Long> REWRITE_MAX_FILE_GROUP_SIZE_BYTES =
            longOption(
                    "rewrite.max-file-group-size-bytes",
                    null,
                    "The largest group of files rewritten together (default 100 GB).");

    public static final ConnectorOption<Boolean> REWRITE_PARTIAL_PROGRESS_ENABLED =
            booleanOption(
                    "rewrite.partial-progress.enabled",
                    false,
                    "Commit a compaction's file groups in several commits, so that a conflict"
                            + " loses only the groups of the commit it hits.");

    public static final ConnectorOption<Integer> REWRITE_PARTIAL_PROGRESS_MAX_COMMITS =
            intOption(
                    "rewrite.partial-progress.max-commits",
                    10,
                    "The most commits one compaction makes with partial progress.");

    // ---- ExpireSnapshots

    public static final ConnectorOption<Integer> EXPIRE_SCHEDULE_COMMIT_COUNT =
            intOption(
                    "expire-snapshots.schedule.commit-count",
                    10,
                    "Expire snapshots after this many commits since the last expiration.");

    public static final ConnectorOption<Long> EXPIRE_SCHEDULE_INTERVAL_SECOND =
            longOption(
                    "expire-snapshots.schedule.interval-second",
                    3600L,
                    "Expire snapshots when this many seconds passed since the last expiration.");

    public static final ConnectorOption<Integer> EXPIRE_RETAIN_LAST =
            intOption(
                    "expire-snapshots.retain-last",
                    null,
                    "Keep at least this many ancestors of the current snapshot; default: the"
                            + " table's history.expire.min-snapshots-to-keep.");

    public static final ConnectorOption<Long> EXPIRE_MAX_SNAPSHOT_AGE_SECONDS =
            longOption(
                    "expire-snapshots.max-snapshot-age-seconds",
                    null,
                    "Expire snapshots older than this many seconds; default: the table's"
                            + " history.expire.max-snapshot-age-ms. The newest snapshot a Flink"
                            + " writer committed is always kept.");

    public static final ConnectorOption<Integer> EXPIRE_DELETE_BATCH_SIZE =
            intOption(
                    "expire-snapshots.delete-batch-size",
                    ExpireSnapshots.DEFAULT_DELETE_BATCH_SIZE,
                    "Files one deleting worker deletes in one go.");

    public static final ConnectorOption<Integer> EXPIRE_PLANNING_WORKER_POOL_SIZE =
            intOption(
                    "expire-snapshots.planning-worker-pool-size",
                    null,
                    "Threads reading manifests while planning; default: Iceberg's shared pool.");

    public static final ConnectorOption<Boolean> EXPIRE_CLEAN_EXPIRED_METADATA =
            booleanOption(
                    "expire-snapshots.clean-expired-metadata",
                    false,
                    "Whether schemas and partition specs no retained snapshot uses are removed.");

    // ---- DeleteOrphanFiles

    public static final ConnectorOption<Integer> ORPHAN_SCHEDULE_COMMIT_COUNT =
            intOption(
                    "delete-orphan-files.schedule.commit-count",
                    null,
                    "Delete orphan files after this many commits since the last deletion.");

    public static final ConnectorOption<Long> ORPHAN_SCHEDULE_INTERVAL_SECOND =
            longOption(
                    "delete-orphan-files.schedule.interval-second",
                    3600L,
                    "Delete orphan files when this many seconds passed since the last deletion.");

    public static final ConnectorOption<Long> ORPHAN_MIN_AGE_SECONDS =
            longOption(
                    "delete-orphan-files.min-age-seconds",
                    DeleteOrphanFiles.DEFAULT_MIN_AGE.getSeconds(),
                    "Only files older than this many seconds are deleted: younger ones may belong"
                            + " to a commit in progress.");

    public static final ConnectorOption<String> ORPHAN_LOCATION =
            stringOption(
                    "delete-orphan-files.location",
                    null,
                    "Where to look for orphan files; default: the table's location.");

    public static final ConnectorOption<Boolean> ORPHAN_USE_PREFIX_LISTING =
            booleanOption(
                    "delete-orphan-files.use-prefix-listing",
                    true,
                    "Whether files are listed with the FileIO's prefix listing (object stores)"
                            + " instead of walking directories with Hadoop's FileSystem.");

    public static final ConnectorOption<String> ORPHAN_PREFIX_MISMATCH_MODE =
            stringOption(
                    "delete-orphan-files.prefix-mismatch-mode",
                    "ERROR",
                    "What to do with a file whose path the metadata references under another"
                            + " scheme or authority: ERROR fails the run, IGNORE keeps the file,"
                            + " DELETE deletes it.");

    public static final ConnectorOption<Integer> ORPHAN_DELETE_BATCH_SIZE =
            intOption(
                    "delete-orphan-files.delete-batch-size",
                    DeleteOrphanFiles.DEFAULT_DELETE_BATCH_SIZE,
                    "Orphan files one worker deletes in one go.");

    // ---- RewriteEqualityDeletes

    public static final ConnectorOption<Integer> CONVERT_SCHEDULE_COMMIT_COUNT =
            intOption(
                    "convert-equality-deletes.schedule.commit-count",
                    1,
                    "Convert equality deletes after this many commits since the last conversion.");

    public static final ConnectorOption<Integer> CONVERT_SCHEDULE_EQ_DELETE_FILE_COUNT =
            intOption(
                    "convert-equality-deletes.schedule.eq-delete-file-count",
                    null,
                    "Convert after commits added this many equality delete files.");

    public static final ConnectorOption<Long> CONVERT_SCHEDULE_INTERVAL_SECOND =
            longOption(
                    "convert-equality-deletes.schedule.interval-second",
                    null,
                    "Convert when this many seconds passed since the last conversion.");

    public static final ConnectorOption<Long> CONVERT_MAX_BYTES =
            longOption(
                    "convert-equality-deletes.max-bytes",
                    null,
                    "The most data bytes one conversion scans; larger backlogs take several runs.");

    /** Every maintenance setting, for validation and the generated reference. */
    public static List<ConnectorOption<?>> all() {
        return List.of(
                RATE_LIMIT_SECONDS,
                LOCK_CHECK_DELAY_SECONDS,
                PARALLELISM,
                SLOT_SHARING_GROUP,
                LOCK_TYPE,
                LOCK_ID,
                LOCK_JDBC_URI,
                LOCK_JDBC_USER,
                LOCK_JDBC_PASSWORD,
                LOCK_JDBC_INIT_LOCK_TABLE,
                REWRITE_SCHEDULE_COMMIT_COUNT,
                REWRITE_SCHEDULE_DATA_FILE_COUNT,
                REWRITE_SCHEDULE_DATA_FILE_SIZE,
                REWRITE_SCHEDULE_INTERVAL_SECOND,
                REWRITE_MAX_BYTES,
                REWRITE_TARGET_FILE_SIZE_BYTES,
                REWRITE_MIN_FILE_SIZE_BYTES,
                REWRITE_MAX_FILE_SIZE_BYTES,
                REWRITE_MIN_INPUT_FILES,
                REWRITE_DELETE_FILE_THRESHOLD,
                REWRITE_ALL,
                REWRITE_MAX_FILE_GROUP_SIZE_BYTES,
                REWRITE_PARTIAL_PROGRESS_ENABLED,
                REWRITE_PARTIAL_PROGRESS_MAX_COMMITS,
                EXPIRE_SCHEDULE_COMMIT_COUNT,
                EXPIRE_SCHEDULE_INTERVAL_SECOND,
                EXPIRE_RETAIN_LAST,
                EXPIRE_MAX_SNAPSHOT_AGE_SECONDS,
                EXPIRE_DELETE_BATCH_SIZE,
                EXPIRE_PLANNING_WORKER_POOL_SIZE,
                EXPIRE_CLEAN_EXPIRED_METADATA,
                ORPHAN_SCHEDULE_COMMIT_COUNT,
                ORPHAN_SCHEDULE_INTERVAL_SECOND,
                ORPHAN_MIN_AGE_SECONDS,
                ORPHAN_LOCATION,
                ORPHAN_USE_PREFIX_LISTING,
                ORPHAN_PREFIX_MISMATCH_MODE,
                ORPHAN_DELETE_BATCH_SIZE,
                CONVERT_SCHEDULE_COMMIT_COUNT,
                CONVERT_SCHEDULE_EQ_DELETE_FILE_COUNT,
                CONVERT_SCHEDULE_INTERVAL_SECOND,
                CONVERT_MAX_BYTES);
    }

    private static ConnectorOption<Long> longOption(String key, Long fallback, String text) {
        return option(ConfigOptions.key(PREFIX + key).longType(), fallback, text, Long.class);
    }

    private static ConnectorOption<Integer> intOption(String key, Integer fallback, String text) {
        return option(ConfigOptions.key(PREFIX + key).intType(), fallback, text, Integer.class);
    }

    private static ConnectorOption<String> stringOption(String key, String fallback, String text) {
        return option(ConfigOptions.key(PREFIX + key).stringType(), fallback, text, String.class);
    }

    private static ConnectorOption<Boolean> booleanOption(
            String key, boolean fallback, String text) {
        return option(ConfigOptions.key(PREFIX + key).booleanType(), fallback, text, Boolean.class);
    }

    private static <T> ConnectorOption<T> option(
            ConfigOptions.TypedConfigOptionBuilder<T> typed,
            T fallback,
            String text,
            Class<T> type) {
        ConfigOption<T> option =
                fallback == null
                        ? typed.noDefaultValue().withDescription(text)
                        : typed.defaultValue(fallback).withDescription(text);
        return ConnectorOption.builder(option, type).flinkConfigKey(option.key()).build();
    }
}
