package dev.icebergflink.source.config;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Boundedness;

/**
 * What kind of read a plan is: bounded or unbounded, where it starts, and so which enumerator plans
 * it.
 *
 * <p>It exists so that the decision is made in one place, as the small table below, instead of in
 * the builder, the planners and the enumerator factory each. The first row that matches wins; a
 * dash matches anything.
 *
 * <pre>
 * streaming | range bounds set | strategy chosen | bare start set | mode
 * ----------+------------------+-----------------+----------------+----------------------
 * false     | no               | -               | -              | SNAPSHOT
 * false     | yes              | -               | -              | INCREMENTAL_RANGE
 * true      | -                | no              | yes            | STREAMING_AFTER_START
 * true      | -                | -               | -              | STREAMING_FROM_STRATEGY
 * </pre>
 *
 * <p>Range bounds are {@code start-snapshot-id}, {@code start-snapshot-timestamp}, {@code
 * start-tag}, {@code end-snapshot-id} and {@code end-tag}; a bare start is {@code
 * start-snapshot-id} or {@code start-snapshot-timestamp} without a {@code starting-strategy}, which
 * starts after that snapshot (exclusive).
 */
@Internal
public enum ReadMode {
    /** A bounded read of one snapshot: the current one, or a time-travel target. */
    SNAPSHOT(Boundedness.BOUNDED),
    /** A bounded read of the appends in a range of snapshots (start exclusive, end inclusive). */
    INCREMENTAL_RANGE(Boundedness.BOUNDED),
    /** An unbounded read of the appends after a bare start snapshot or time (exclusive). */
    STREAMING_AFTER_START(Boundedness.CONTINUOUS_UNBOUNDED),
    /** An unbounded read that starts where the {@code starting-strategy} says. */
    STREAMING_FROM_STRATEGY(Boundedness.CONTINUOUS_UNBOUNDED);

    private final Boundedness boundedness;

    ReadMode(Boundedness boundedness) {
        this.boundedness = boundedness;
    }

    /** Whether the read ends. */
    public Boundedness boundedness() {
        return boundedness;
    }

    /**
     * Whether the continuous enumerator plans the read (round after round); else the static one
     * plans it once.
     */
    public boolean continuous() {
        return boundedness == Boundedness.CONTINUOUS_UNBOUNDED;
    }

    /** The mode of a plan, by the table in the class comment. */
    public static ReadMode of(ScanContext plan) {
        boolean rangeBounds =
                plan.startSnapshotId() != null
                        || plan.startTag() != null
                        || plan.endSnapshotId() != null
                        || plan.endTag() != null
                        || plan.startSnapshotTimestamp() != null;
        boolean bareStart = plan.startSnapshotId() != null || plan.startSnapshotTimestamp() != null;
        for (Rule rule : RULES) {
            if (rule.matches(
                    plan.streaming(), rangeBounds, plan.startingStrategyExplicit(), bareStart)) {
                return rule.mode();
            }
        }
        throw new IllegalStateException("No read mode for " + plan);
    }

    /** A row of the decision table; {@code null} matches anything. */
    private record Rule(
            Boolean streaming,
            Boolean rangeBounds,
            Boolean strategyChosen,
            Boolean bareStart,
            ReadMode mode) {

        boolean matches(
                boolean isStreaming,
                boolean hasRangeBounds,
                boolean hasStrategy,
                boolean hasBareStart) {
            return is(streaming, isStreaming)
                    && is(rangeBounds, hasRangeBounds)
                    && is(strategyChosen, hasStrategy)
                    && is(bareStart, hasBareStart);
        }

        private static boolean is(Boolean expected, boolean actual) {
            return expected == null || expected == actual;
        }
    }

    private static final Boolean ANY = null;

    private static final List<Rule> RULES =
            List.of(
                    new Rule(false, false, ANY, ANY, SNAPSHOT),
                    new Rule(false, true, ANY, ANY, INCREMENTAL_RANGE),
                    new Rule(true, ANY, false, true, STREAMING_AFTER_START),
                    new Rule(true, ANY, ANY, ANY, STREAMING_FROM_STRATEGY));
}
