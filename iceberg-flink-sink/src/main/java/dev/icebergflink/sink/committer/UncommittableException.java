package dev.icebergflink.sink.committer;

/**
 * A committable that can never be committed as it is, whatever is retried: e.g. delete files under
 * a commit mode that only adds or replaces data files.
 *
 * <p>It exists so that the committer tells such a committable from a transient failure by its type:
 * it fails the commit request at once instead of asking Flink to retry it, as it does for Iceberg's
 * {@code ValidationException}. Every other runtime failure is retried.
 */
final class UncommittableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UncommittableException(String message) {
        super(message);
    }
}
