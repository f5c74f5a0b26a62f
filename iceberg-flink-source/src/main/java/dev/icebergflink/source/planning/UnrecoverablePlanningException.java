package dev.icebergflink.source.planning;

/**
 * A planning failure that retrying cannot fix: an overwrite or delete snapshot met without its skip
 * option, a start snapshot that does not exist, or a position that left the table's history. The
 * continuous enumerator fails the job on it at once instead of counting it against {@code
 * max-allowed-planning-failures}.
 */
public final class UnrecoverablePlanningException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public UnrecoverablePlanningException(String message) {
        super(message);
    }
}
