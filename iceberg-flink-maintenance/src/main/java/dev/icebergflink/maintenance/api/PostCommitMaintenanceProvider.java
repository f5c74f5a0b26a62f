package dev.icebergflink.maintenance.api;

import static dev.icebergflink.maintenance.api.MaintenanceOptions.*;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.postcommit.CommittedChanges;
import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionResolver;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.sink.PostCommitMaintenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.iceberg.actions.DeleteOrphanFiles.PrefixMismatchMode;

/**
 * The maintenance module's side of the sink's {@link PostCommitMaintenance}: reads the {@link
 * MaintenanceOptions}, and after the sink's committer adds a {@link TableMaintenance} topology fed
 * by the committed checkpoints ({@link CommittedChanges}) with the tasks the sink's enable options
 * switch on. Registered in {@code META-INF/services}.
 */
@Internal
public final class PostCommitMaintenanceProvider implements PostCommitMaintenance {

    /** The enable options of the tasks this provider knows, owned by the sink. */
    private static final List<ConnectorOption<?>> ENABLE_OPTIONS =
            List.of(
                    FlinkWriteOptions.REWRITE_ENABLED,
                    FlinkWriteOptions.EXPIRE_SNAPSHOTS_ENABLED,
                    FlinkWriteOptions.DELETE_ORPHAN_FILES_ENABLED,
                    FlinkWriteOptions.CONVERT_EQUALITY_DELETES_ENABLED);

    @Override
    public List<ConnectorOption<?>> options() {
        return MaintenanceOptions.all();
    }

    @Override
    public void validate(Map<String, String> settings) {
        List<ConnectorOption<?>> known = new ArrayList<>(MaintenanceOptions.all());
        known.addAll(ENABLE_OPTIONS);
        OptionValidation.checkKnownKeys(settings.keySet(), known);
        OptionResolver resolver = new OptionResolver(settings, null, null);
        known.forEach(resolver::getOptional);
        Tasks tasks = Tasks.of(resolver);
        tasks.rateLimit();
        tasks.lockCheckDelay();
        tasks.parallelism();
        tasks.lockFactory("the sink's table");
        if (tasks.enabled().isEmpty()) {
            throw new IllegalArgumentException(
                    "No maintenance task is switched on: set one of "
                            + ENABLE_OPTIONS.stream().map(ConnectorOption::key).toList());
        }
    }

    @Override
    public void addAfterCommits(
            DataStream<Long> committedCheckpoints,
            TableLoader tableLoader,
            Map<String, String> settings,
            String uidSuffix) {
        Tasks tasks = Tasks.of(new OptionResolver(settings, null, null));
        String tableName = tableName(tableLoader);
        String suffix = uidSuffix == null ? tableName : uidSuffix;
        SingleOutputStreamOperator<TableChange> changes =
                committedCheckpoints
                        .flatMap(
                                new CommittedChanges(
                                        tableLoader.clone(),
                                        TableMaintenance.DEFAULT_MAX_READ_BACK))
                        .name("Committed changes: " + tableName)
                        .setParallelism(1);
        if (uidSuffix != null) {
            changes.uid("maintenance-committed-changes-" + suffix);
        }
        TableMaintenance.Builder maintenance =
                TableMaintenance.forChangeStream(
                                changes, tableLoader.clone(), tasks.lockFactory(tableName))
                        .uidSuffix("post-commit-" + suffix)
                        .operatorUids(uidSuffix != null)
                        .rateLimit(tasks.rateLimit())
                        .lockCheckDelay(tasks.lockCheckDelay());
        if (tasks.parallelism() != null) {
            maintenance.parallelism(tasks.parallelism());
        }
        if (tasks.slotSharingGroup() != null) {
            maintenance.slotSharingGroup(tasks.slotSharingGroup());
            changes.slotSharingGroup(tasks.slotSharingGroup());
        }
        tasks.enabled().forEach(maintenance::add);
        try {
            maintenance.append();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot add maintenance of table " + tableName, e);
        }
    }

    private static String tableName(TableLoader loader) {
        try (TableLoader naming = loader.clone()) {
            naming.open();
            return naming.loadTable().name();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tasks and topology settings the options describe. */
    private record Tasks(OptionResolver options) {

        static Tasks of(OptionResolver options) {
            return new Tasks(options);
        }

        List<MaintenanceTaskBuilder<?>> enabled() {
            List<MaintenanceTaskBuilder<?>> tasks = new ArrayList<>();
            if (options.get(FlinkWriteOptions.REWRITE_ENABLED)) {
                tasks.add(rewrite());
            }
            if (options.get(FlinkWriteOptions.EXPIRE_SNAPSHOTS_ENABLED)) {
                tasks.add(expire());
            }
            if (options.get(FlinkWriteOptions.DELETE_ORPHAN_FILES_ENABLED)) {
                tasks.add(deleteOrphans());
            }
            if (options.get(FlinkWriteOptions.CONVERT_EQUALITY_DELETES_ENABLED)) {
                tasks.add(convertEqualityDeletes());
            }
            return tasks;
        }

        RewriteEqualityDeletes.Builder convertEqualityDeletes() {
            RewriteEqualityDeletes.Builder convert =
                    RewriteEqualityDeletes.builder()
                            .scheduleOnCommitCount(options.get(CONVERT_SCHEDULE_COMMIT_COUNT));
            options.getOptional(CONVERT_SCHEDULE_EQ_DELETE_FILE_COUNT)
                    .ifPresent(convert::scheduleOnEqDeleteFileCount);
            options.getOptional(CONVERT_SCHEDULE_INTERVAL_SECOND)
                    .ifPresent(seconds -> convert.scheduleOnInterval(Duration.ofSeconds(seconds)));
            options.getOptional(CONVERT_MAX_BYTES).ifPresent(convert::maxRewriteBytes);
            return convert;
        }

        DeleteOrphanFiles.Builder deleteOrphans() {
            DeleteOrphanFiles.Builder orphans =
                    DeleteOrphanFiles.builder()
                            .scheduleOnInterval(
                                    Duration.ofSeconds(
                                            options.get(ORPHAN_SCHEDULE_INTERVAL_SECOND)))
                            .minAge(Duration.ofSeconds(options.get(ORPHAN_MIN_AGE_SECONDS)))
                            .usePrefixListing(options.get(ORPHAN_USE_PREFIX_LISTING))
                            .prefixMismatchMode(prefixMismatchMode())
                            .deleteBatchSize(options.get(ORPHAN_DELETE_BATCH_SIZE));
            options.getOptional(ORPHAN_SCHEDULE_COMMIT_COUNT)
                    .ifPresent(orphans::scheduleOnCommitCount);
            options.getOptional(ORPHAN_LOCATION).ifPresent(orphans::location);
            return orphans;
        }

        private PrefixMismatchMode prefixMismatchMode() {
            String mode = options.get(ORPHAN_PREFIX_MISMATCH_MODE);
            try {
                return PrefixMismatchMode.valueOf(mode.trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' is '%s'; allowed are ERROR, IGNORE and DELETE",
                                ORPHAN_PREFIX_MISMATCH_MODE.key(), mode));
            }
        }

        RewriteDataFiles.Builder rewrite() {
            RewriteDataFiles.Builder rewrite =
                    RewriteDataFiles.builder()
                            .scheduleOnCommitCount(options.get(REWRITE_SCHEDULE_COMMIT_COUNT))
                            .scheduleOnDataFileCount(options.get(REWRITE_SCHEDULE_DATA_FILE_COUNT))
                            .scheduleOnDataFileSize(options.get(REWRITE_SCHEDULE_DATA_FILE_SIZE))
                            .scheduleOnInterval(
                                    Duration.ofSeconds(
                                            options.get(REWRITE_SCHEDULE_INTERVAL_SECOND)));
            options.getOptional(REWRITE_MAX_BYTES).ifPresent(rewrite::maxRewriteBytes);
            options.getOptional(REWRITE_TARGET_FILE_SIZE_BYTES)
                    .ifPresent(rewrite::targetFileSizeBytes);
            options.getOptional(REWRITE_MIN_FILE_SIZE_BYTES).ifPresent(rewrite::minFileSizeBytes);
            options.getOptional(REWRITE_MAX_FILE_SIZE_BYTES).ifPresent(rewrite::maxFileSizeBytes);
            options.getOptional(REWRITE_MIN_INPUT_FILES).ifPresent(rewrite::minInputFiles);
            options.getOptional(REWRITE_DELETE_FILE_THRESHOLD)
                    .ifPresent(rewrite::deleteFileThreshold);
            rewrite.rewriteAll(options.get(REWRITE_ALL));
            options.getOptional(REWRITE_MAX_FILE_GROUP_SIZE_BYTES)
                    .ifPresent(rewrite::maxFileGroupSizeBytes);
            rewrite.partialProgressEnabled(options.get(REWRITE_PARTIAL_PROGRESS_ENABLED));
            rewrite.partialProgressMaxCommits(options.get(REWRITE_PARTIAL_PROGRESS_MAX_COMMITS));
            return rewrite;
        }

        ExpireSnapshots.Builder expire() {
            ExpireSnapshots.Builder expire =
                    ExpireSnapshots.builder()
                            .scheduleOnCommitCount(options.get(EXPIRE_SCHEDULE_COMMIT_COUNT))
                            .scheduleOnInterval(
                                    Duration.ofSeconds(
                                            options.get(EXPIRE_SCHEDULE_INTERVAL_SECOND)))
                            .deleteBatchSize(options.get(EXPIRE_DELETE_BATCH_SIZE))
                            .cleanExpiredMetadata(options.get(EXPIRE_CLEAN_EXPIRED_METADATA));
            options.getOptional(EXPIRE_RETAIN_LAST).ifPresent(expire::retainLast);
            options.getOptional(EXPIRE_MAX_SNAPSHOT_AGE_SECONDS)
                    .ifPresent(seconds -> expire.maxSnapshotAge(Duration.ofSeconds(seconds)));
            options.getOptional(EXPIRE_PLANNING_WORKER_POOL_SIZE)
                    .ifPresent(expire::planningWorkerPoolSize);
            return expire;
        }

        Duration rateLimit() {
            return positiveSeconds(RATE_LIMIT_SECONDS);
        }

        Duration lockCheckDelay() {
            return positiveSeconds(LOCK_CHECK_DELAY_SECONDS);
        }

        private Duration positiveSeconds(ConnectorOption<Long> option) {
            long seconds = options.get(option);
            if (seconds <= 0) {
                throw new IllegalArgumentException(
                        "Option '"
                                + option.key()
                                + "' must be a positive number of seconds, got "
                                + seconds);
            }
            return Duration.ofSeconds(seconds);
        }

        Integer parallelism() {
            Integer parallelism = options.getOptional(PARALLELISM).orElse(null);
            if (parallelism != null && parallelism < 1) {
                throw new IllegalArgumentException(
                        "Option '" + PARALLELISM.key() + "' must be positive, got " + parallelism);
            }
            return parallelism;
        }

        String slotSharingGroup() {
            return options.getOptional(SLOT_SHARING_GROUP).orElse(null);
        }

        /** The shared lock the options ask for, or null for the job's own. */
        TriggerLockFactory lockFactory(String tableName) {
            String type = options.get(LOCK_TYPE);
            if (type == null || type.isBlank()) {
                return null;
            }
            if (!type.trim().equalsIgnoreCase("jdbc")) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' is '%s'; use 'jdbc' for a lock shared by jobs, or"
                                        + " leave it empty for the job's own lock",
                                LOCK_TYPE.key(), type));
            }
            String uri = options.getOptional(LOCK_JDBC_URI).orElse(null);
            if (uri == null || uri.isBlank()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' is 'jdbc' but '%s' is not set: give the JDBC URL of"
                                        + " the lock database",
                                LOCK_TYPE.key(), LOCK_JDBC_URI.key()));
            }
            Map<String, String> properties = new HashMap<>();
            options.getOptional(LOCK_JDBC_USER)
                    .ifPresent(user -> properties.put(JdbcLockFactory.USER_PROPERTY, user));
            options.getOptional(LOCK_JDBC_PASSWORD)
                    .ifPresent(
                            password ->
                                    properties.put(JdbcLockFactory.PASSWORD_PROPERTY, password));
            properties.put(
                    JdbcLockFactory.INIT_LOCK_TABLES_PROPERTY,
                    Boolean.toString(options.get(LOCK_JDBC_INIT_LOCK_TABLE)));
            return new JdbcLockFactory(
                    uri, options.getOptional(LOCK_ID).orElse(tableName), properties);
        }
    }
}
