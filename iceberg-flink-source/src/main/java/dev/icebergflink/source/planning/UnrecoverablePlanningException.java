package dev.icebergflink.source.planning;

import org.apache.flink.annotation.Internal;

/**
 * A planning failure that retrying cannot fix: an overwrite or delete snapshot met without its skip
 * option, a start snapshot that does not exist, a position that left the table's history, or a
 * table that was dropped and re-created under the read ({@link TableIdentity}). The continuous
 * enumerator fails the job on it at once instead of counting it against {@code
 * max-allowed-planning-failures}, and suppresses the job's restarts: a restart restores the same
 * state and would fail the same way.
 */
@Internal
public final class UnrecoverablePlanningException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public UnrecoverablePlanningException(String message) {
        super(message);
    }

    public UnrecoverablePlanningException(String message, Throwable cause) {
        super(message, cause);
    }
}
