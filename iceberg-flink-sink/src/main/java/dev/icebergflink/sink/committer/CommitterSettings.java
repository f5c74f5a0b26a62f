package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.expressions.Expression;

/**
 * Everything the commit side of the sink (aggregation and committer) needs to know, as one
 * immutable, serializable value built by the sink's builder.
 *
 * <p>It exists so that the public {@code IcebergSink} builder can hand a single validated object to
 * {@link CommitTopology} and {@link IcebergCommitter} instead of a long parameter list. It travels
 * in the job graph (Java serialization is fine there); it is never part of checkpointed state.
 */
@Internal
public final class CommitterSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Default number of consecutive empty checkpoints after which an empty snapshot is made. */
    public static final int DEFAULT_MAX_CONTINUOUS_EMPTY_COMMITS = 10;

    private final TableLoader tableLoader;
    private final String branch;
    private final Map<String, String> snapshotProperties;
    private final CommitMode mode;
    private final Expression staticOverwriteFilter;
    private final String uidSuffix;
    private final boolean operatorUids;
    private final String stagingLocation;

    private CommitterSettings(Builder builder) {
        this.tableLoader = builder.tableLoader;
        this.branch = builder.branch;
        this.snapshotProperties =
                Collections.unmodifiableMap(new LinkedHashMap<>(builder.snapshotProperties));
        this.mode = builder.mode;
        this.staticOverwriteFilter = builder.staticOverwriteFilter;
        this.uidSuffix = builder.uidSuffix;
        this.operatorUids = builder.operatorUids;
        this.stagingLocation = builder.stagingLocation;
    }

    private CommitterSettings(CommitterSettings other, boolean operatorUids) {
        this.tableLoader = other.tableLoader;
        this.branch = other.branch;
        this.snapshotProperties = other.snapshotProperties;
        this.mode = other.mode;
        this.staticOverwriteFilter = other.staticOverwriteFilter;
        this.uidSuffix = other.uidSuffix;
        this.operatorUids = operatorUids;
        this.stagingLocation = other.stagingLocation;
    }

    /** Starts settings for the table that {@code tableLoader} loads. */
    public static Builder builder(TableLoader tableLoader) {
        return new Builder(tableLoader);
    }

    /** The loader of the target table; operators {@link TableLoader#clone() clone} it. */
    public TableLoader tableLoader() {
        return tableLoader;
    }

    /** The branch commits go to ({@code main} by default). */
    public String branch() {
        return branch;
    }

    /** Extra snapshot-summary properties; the sink's own {@code flink.*} keys override them. */
    public Map<String, String> snapshotProperties() {
        return snapshotProperties;
    }

    /** The commit operation of every checkpoint. */
    public CommitMode mode() {
        return mode;
    }

    /** The row filter of {@link CommitMode#STATIC_OVERWRITE}; null for every other mode. */
    public Expression staticOverwriteFilter() {
        return staticOverwriteFilter;
    }

    /**
     * The suffix that makes the uids of the sink's operators stable and unique within a job (the
     * table name when the user gave none).
     */
    public String uidSuffix() {
        return uidSuffix;
    }

    /**
     * Whether {@link CommitTopology} gives the aggregation operator its stable uid {@code
     * iceberg-aggregator-<suffix>}. Flink accepts uids on the operators a sink adds only when the
     * sink transformation itself has a uid, so the sink turns this on exactly when it makes sure of
     * that (a {@code uid-suffix} was set, or {@code FlinkSink} attaches the sink).
     */
    public boolean operatorUids() {
        return operatorUids;
    }

    /**
     * The directory where {@link CommitMode#STAGE} records the checkpoints' committables; null for
     * every other mode.
     */
    public String stagingLocation() {
        return stagingLocation;
    }

    /** A copy of these settings with {@link #operatorUids()} set as given. */
    public CommitterSettings withOperatorUids(boolean enabled) {
        return enabled == operatorUids ? this : new CommitterSettings(this, enabled);
    }

    @Override
    public String toString() {
        return "CommitterSettings{table="
                + tableLoader
                + ", branch="
                + branch
                + ", mode="
                + mode
                + (staticOverwriteFilter == null ? "" : ", filter=" + staticOverwriteFilter)
                + (stagingLocation == null ? "" : ", staging=" + stagingLocation)
                + ", uidSuffix="
                + uidSuffix
                + (operatorUids ? " (operator uids)" : "")
                + ", snapshotProperties="
                + snapshotProperties.keySet()
                + "}";
    }

    /** Collects the settings; {@link #build()} validates them. */
    public static final class Builder {
        private final TableLoader tableLoader;
        private String branch = SnapshotRef.MAIN_BRANCH;
        private final Map<String, String> snapshotProperties = new LinkedHashMap<>();
        private CommitMode mode = CommitMode.APPEND;
        private Expression staticOverwriteFilter;
        private String uidSuffix = "";
        private boolean operatorUids;
        private String stagingLocation;

        private Builder(TableLoader tableLoader) {
            this.tableLoader = tableLoader;
        }

        /** The target branch; null or blank means {@code main}. */
        public Builder branch(String newBranch) {
            this.branch =
                    newBranch == null || newBranch.isBlank() ? SnapshotRef.MAIN_BRANCH : newBranch;
            return this;
        }

        /** Adds snapshot-summary properties written with every commit. */
        public Builder snapshotProperties(Map<String, String> properties) {
            if (properties != null) {
                snapshotProperties.putAll(properties);
            }
            return this;
        }

        /** Adds one snapshot-summary property written with every commit. */
        public Builder snapshotProperty(String key, String value) {
            snapshotProperties.put(key, value);
            return this;
        }

        /** The commit operation (default {@link CommitMode#APPEND}). */
        public Builder mode(CommitMode newMode) {
            this.mode = newMode;
            return this;
        }

        /** Static overwrite of the rows {@code filter} matches; sets the mode too. */
        public Builder staticOverwrite(Expression filter) {
            this.mode = CommitMode.STATIC_OVERWRITE;
            this.staticOverwriteFilter = filter;
            return this;
        }

        /**
         * Records the checkpoints' committables under {@code location} instead of committing them;
         * sets the mode {@link CommitMode#STAGE} too.
         */
        public Builder stageTo(String location) {
            this.mode = CommitMode.STAGE;
            this.stagingLocation = location;
            return this;
        }

        /** The uid suffix of the sink's operators (empty: the caller's default). */
        public Builder uidSuffix(String suffix) {
            this.uidSuffix = suffix == null ? "" : suffix;
            return this;
        }

        /** Whether the aggregation gets a uid (default false; see {@link #operatorUids()}). */
        public Builder operatorUids(boolean enabled) {
            this.operatorUids = enabled;
            return this;
        }

        /** Validates and builds the settings. */
        public CommitterSettings build() {
            if (tableLoader == null) {
                throw new IllegalArgumentException(
                        "The Iceberg sink's committer needs a TableLoader of the target table");
            }
            Objects.requireNonNull(mode, "commit mode");
            if (mode == CommitMode.STATIC_OVERWRITE && staticOverwriteFilter == null) {
                throw new IllegalArgumentException(
                        "Commit mode STATIC_OVERWRITE needs the row filter of the partition to"
                                + " overwrite (e.g. Expressions.equal(\"dt\", \"2024-01-01\"))");
            }
            if (mode == CommitMode.STAGE
                    && (stagingLocation == null || stagingLocation.isBlank())) {
                throw new IllegalArgumentException(
                        "Commit mode STAGE needs the directory where the checkpoints are recorded:"
                                + " call stageTo(location) with a location the table's FileIO"
                                + " can write");
            }
            if (mode != CommitMode.STAGE && stagingLocation != null) {
                throw new IllegalArgumentException(
                        "A staging location was given but the commit mode is "
                                + mode
                                + "; only STAGE uses it");
            }
            if (mode != CommitMode.STATIC_OVERWRITE && staticOverwriteFilter != null) {
                throw new IllegalArgumentException(
                        "A static overwrite filter was given but the commit mode is "
                                + mode
                                + "; only STATIC_OVERWRITE uses it");
            }
            for (Map.Entry<String, String> e : snapshotProperties.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) {
                    throw new IllegalArgumentException(
                            "Snapshot properties need non-null keys and values, got "
                                    + e.getKey()
                                    + "="
                                    + e.getValue());
                }
            }
            return new CommitterSettings(this);
        }
    }
}
