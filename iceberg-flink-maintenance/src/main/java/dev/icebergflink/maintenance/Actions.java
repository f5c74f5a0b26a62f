package dev.icebergflink.maintenance;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.Table;

/**
 * The entry point of table maintenance: {@code Actions.forTable(table).rewriteDataFiles()...
 * execute()}.
 *
 * <p>It exists so that maintenance reads like the user documentation's example, and so that every
 * action of one table shares the table and the Flink environment its batch jobs run in. Actions
 * that run a Flink job ({@link #rewriteDataFiles()}) switch that environment to {@code BATCH}
 * execution.
 */
@PublicEvolving
public final class Actions {

    private final StreamExecutionEnvironment env;
    private final Table table;

    private Actions(StreamExecutionEnvironment env, Table table) {
        this.env = Objects.requireNonNull(env, "env must not be null");
        this.table = Objects.requireNonNull(table, "table must not be null");
    }

    /** Actions on {@code table} whose Flink jobs run in the current execution environment. */
    public static Actions forTable(Table table) {
        return new Actions(StreamExecutionEnvironment.getExecutionEnvironment(), table);
    }

    /** Actions on {@code table} whose Flink jobs run in {@code env}. */
    public static Actions forTable(StreamExecutionEnvironment env, Table table) {
        return new Actions(env, table);
    }

    /** Compacts small data files (and applies their deletes) with a Flink batch job. */
    public RewriteDataFilesAction rewriteDataFiles() {
        return new RewriteDataFilesAction(env, table);
    }

    /** Removes old snapshots and the files only they referenced. */
    public ExpireSnapshotsAction expireSnapshots() {
        return new ExpireSnapshotsAction(table);
    }

    /**
     * Finds, and deletes unless dry-running, files under the table location no metadata refers to.
     */
    public DeleteOrphanFilesAction deleteOrphanFiles() {
        return new DeleteOrphanFilesAction(table);
    }
}
