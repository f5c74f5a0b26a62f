package dev.icebergflink.sink.committer;

/**
 * Thrown inside Iceberg's commit when the base the commit was applied to already holds the
 * committable: another attempt of the same committable landed after the committer's lookup.
 *
 * <p>It exists to leave Iceberg's retry loop at once (it retries only commit conflicts) and to let
 * the committer tell this outcome, which is a success for exactly-once, from a failure.
 */
final class AlreadyCommittedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    AlreadyCommittedException(
            IcebergCommittable committable, String branch, CommitProgress landed) {
        super(
                "Checkpoint "
                        + committable.checkpointId()
                        + " of "
                        + committable.owner()
                        + " landed in branch "
                        + branch
                        + " while it was being committed ("
                        + landed
                        + "); this commit is abandoned");
    }
}
