package dev.icebergflink.source.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The rules a read plan must follow: value ranges, options that exclude each other, references that
 * must exist in the table, and a watermark column and filters that fit the schema.
 *
 * <p>It exists to keep the rules apart from the plan's values. Every failure is an {@link
 * IllegalArgumentException} that names the option, the value and what is allowed.
 */
final class ScanContextValidation {

    private ScanContextValidation() {}

    /** Checks every rule of a plan just resolved for {@code table}. */
    static void validate(ScanContext plan, Table table) {
        validateCombinations(plan);
        validateRanges(plan);
        validateReferences(plan, table);
        validateQuery(plan);
    }

    /**
     * Checks the parts a query may change after resolution (limit, watermark column, filters), see
     * {@link ScanContext#withLimit} and its siblings.
     */
    static void validateQuery(ScanContext plan) {
        long limit = plan.limit();
        check(limit >= -1, "Option 'limit' must be -1 (no limit) or at least 0, got " + limit);
        validateWatermarkColumn(plan);
        validateFilters(plan);
    }

    private static void validateCombinations(ScanContext plan) {
        check(
                !(plan.snapshotId() != null && plan.asOfTimestamp() != null),
                "Options 'snapshot-id' and 'as-of-timestamp' cannot both be set: both choose the"
                        + " snapshot to read");
        check(
                !(plan.tag() != null && plan.asOfTimestamp() != null),
                "Options 'tag' and 'as-of-timestamp' cannot both be set: both choose the snapshot"
                        + " to read");
        check(
                !(plan.startSnapshotId() != null && plan.startTag() != null),
                "Options 'start-snapshot-id' and 'start-tag' cannot both be set");
        check(
                !(plan.endSnapshotId() != null && plan.endTag() != null),
                "Options 'end-snapshot-id' and 'end-tag' cannot both be set");
        boolean timeTravel =
                plan.snapshotId() != null || plan.tag() != null || plan.asOfTimestamp() != null;
        boolean incremental =
                plan.startSnapshotId() != null
                        || plan.startTag() != null
                        || plan.endSnapshotId() != null
                        || plan.endTag() != null
                        || plan.startSnapshotTimestamp() != null;
        check(
                !(timeTravel && incremental),
                "Time travel options ('snapshot-id', 'tag', 'as-of-timestamp') cannot be combined"
                        + " with incremental options ('start-snapshot-id',"
                        + " 'start-snapshot-timestamp', 'start-tag', 'end-snapshot-id', 'end-tag')");
        if (plan.readsChangelog()) {
            String skipping =
                    plan.skipOverwriteSnapshots()
                            ? "streaming-skip-overwrite-snapshots"
                            : plan.skipDeleteSnapshots() ? "streaming-skip-delete-snapshots" : null;
            check(
                    skipping == null,
                    "Option '"
                            + skipping
                            + "' skips the snapshots that option 'changelog-mode' = 'all' reads:"
                            + " remove one of them");
            check(
                    !timeTravel,
                    "Option 'changelog-mode' = 'all' reads the changes between snapshots and"
                            + " cannot be combined with time travel ('snapshot-id', 'tag',"
                            + " 'as-of-timestamp'); use 'start-snapshot-id'/'end-snapshot-id' for"
                            + " the changes of a range");
        }
        if (plan.streaming()) {
            List<String> batchOnly = new ArrayList<>();
            addIfSet(batchOnly, "snapshot-id", plan.snapshotId());
            addIfSet(batchOnly, "as-of-timestamp", plan.asOfTimestamp());
            addIfSet(batchOnly, "tag", plan.tag());
            addIfSet(batchOnly, "end-snapshot-id", plan.endSnapshotId());
            addIfSet(batchOnly, "end-tag", plan.endTag());
            addIfSet(batchOnly, "start-tag", plan.startTag());
            check(
                    batchOnly.isEmpty(),
                    "Option(s) "
                            + batchOnly
                            + " are for bounded reads and cannot be used with 'streaming' = true");
            validateStartingStrategy(plan);
        }
    }

    private static void validateRanges(ScanContext plan) {
        check(
                plan.maxPlanningSnapshotCount() >= 1,
                "Option 'max-planning-snapshot-count' must be at least 1, got "
                        + plan.maxPlanningSnapshotCount());
        check(
                plan.maxAllowedPlanningFailures() >= -1,
                "Option 'max-allowed-planning-failures' must be -1 (never fail) or at least 0, got "
                        + plan.maxAllowedPlanningFailures());
        check(
                !plan.monitorInterval().isNegative() && !plan.monitorInterval().isZero(),
                "Option 'monitor-interval' must be positive, got " + plan.monitorInterval());
        check(
                plan.splitSize() > 0,
                "Option 'split-size' must be positive, got " + plan.splitSize());
        check(
                plan.splitLookback() > 0,
                "Option 'split-lookback' must be positive, got " + plan.splitLookback());
        check(
                plan.splitOpenFileCost() >= 0,
                "Option 'split-file-open-cost' must not be negative, got "
                        + plan.splitOpenFileCost());
        check(
                plan.planParallelism() == null || plan.planParallelism() > 0,
                "Option 'table.exec.iceberg.worker-pool-size' must be positive, got "
                        + plan.planParallelism());
        check(
                plan.splitPlanningPageSize() == -1 || plan.splitPlanningPageSize() >= 1,
                "Option 'split-planning-page-size' must be -1 (no paging) or at least 1, got "
                        + plan.splitPlanningPageSize());
    }

    private static void validateStartingStrategy(ScanContext plan) {
        Long startId = plan.startSnapshotId();
        Long startTime = plan.startSnapshotTimestamp();
        if (!plan.startingStrategyExplicit()) {
            check(
                    !(startId != null && startTime != null),
                    "Options 'start-snapshot-id' and 'start-snapshot-timestamp' cannot both be set");
            return;
        }
        switch (plan.startingStrategy()) {
            case INCREMENTAL_FROM_SNAPSHOT_ID -> {
                check(
                        startId != null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_ID needs"
                                + " 'start-snapshot-id'");
                check(
                        startTime == null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_ID does not take"
                                + " 'start-snapshot-timestamp'");
            }
            case INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP -> {
                check(
                        startTime != null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP needs"
                                + " 'start-snapshot-timestamp'");
                check(
                        startId == null,
                        "Option 'starting-strategy' = INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP does not"
                                + " take 'start-snapshot-id'");
            }
            default -> {
                check(
                        startId == null && startTime == null,
                        "Option 'starting-strategy' = "
                                + plan.startingStrategy()
                                + " does not take 'start-snapshot-id' or"
                                + " 'start-snapshot-timestamp'; use INCREMENTAL_FROM_SNAPSHOT_ID or"
                                + " INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP, or no strategy for an"
                                + " exclusive start");
            }
        }
    }

    private static void validateReferences(ScanContext plan, Table table) {
        checkSnapshot(table, "snapshot-id", plan.snapshotId());
        checkRef(table, "tag", plan.tag(), false);
        checkRef(table, "start-tag", plan.startTag(), false);
        checkRef(table, "end-tag", plan.endTag(), false);
        checkRef(table, "branch", plan.branch(), true);
        checkSnapshot(table, "start-snapshot-id", plan.startSnapshotId());
        checkSnapshot(table, "end-snapshot-id", plan.endSnapshotId());
    }

    private static void checkSnapshot(Table table, String option, Long snapshotId) {
        if (snapshotId != null) {
            check(
                    table.snapshot(snapshotId) != null,
                    "Option '" + option + "' = " + snapshotId + " names no snapshot of " + table);
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

    private static void validateWatermarkColumn(ScanContext plan) {
        String column = plan.watermarkColumn();
        if (column == null) {
            return;
        }
        Types.NestedField field = plan.findColumn(column).orElse(null);
        check(
                field != null,
                "Option 'watermark-column' = '"
                        + column
                        + "' names no column of the table; its columns are "
                        + ReadSchemas.columnNames(plan.tableSchema()));
        Type.TypeID type = field.type().typeId();
        check(
                type == Type.TypeID.LONG
                        || type == Type.TypeID.TIMESTAMP
                        || type == Type.TypeID.TIMESTAMP_NANO,
                "Option 'watermark-column' = '"
                        + column
                        + "' has type "
                        + field.type()
                        + "; allowed are long, timestamp, timestamptz, timestamp_ns and"
                        + " timestamptz_ns");
    }

    private static void validateFilters(ScanContext plan) {
        for (Expression filter : plan.filters()) {
            try {
                Binder.bind(plan.tableSchema().asStruct(), filter, plan.caseSensitive());
            } catch (ValidationException e) {
                throw new IllegalArgumentException(
                        "Filter " + filter + " does not fit the table: " + e.getMessage(), e);
            }
        }
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
}
