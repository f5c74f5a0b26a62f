package dev.icebergflink.sink.committer;

import java.util.List;

/**
 * A committable can be neither recognised as committed nor committed: no snapshot of the branch
 * records its owner's progress, and its temporary manifests are gone.
 *
 * <p>It exists to stop a job that would otherwise restart forever. The committer deletes a
 * committable's manifests only after its commit (or after finding it committed), so missing
 * manifests mean that the checkpoint was committed and the snapshot recording it has since left the
 * branch's history: expired, or removed by a rollback. The message says so and what to do. The
 * committer fails the job with it once, without restarts, since a restart would restore the same
 * committable.
 */
final class CommitProgressLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CommitProgressLostException(
            IcebergCommittable committable,
            String table,
            String branch,
            List<String> missingManifests,
            Throwable cause) {
        super(
                "Checkpoint "
                        + committable.checkpointId()
                        + " of "
                        + committable.owner()
                        + " cannot be committed to branch "
                        + branch
                        + " of table "
                        + table
                        + ": no snapshot in the branch's history records this checkpoint as committed, and"
                        + " the checkpoint's temporary manifests "
                        + missingManifests
                        + " are gone. The sink deletes them only after the checkpoint is committed,"
                        + " so it was committed, and the snapshot that recorded it has since been"
                        + " expired or rolled back. Committing it again is impossible, and skipping"
                        + " it blindly could lose data, so the job stops. Check that the"
                        + " checkpoint's rows are in the table, then start the job without this"
                        + " state (a fresh start with the intended start position, or a newer"
                        + " savepoint). To avoid this, keep the newest snapshot of every running"
                        + " Flink job when expiring snapshots (the connector's expire action does"
                        + " so by default), and do not roll a branch back below a running job's"
                        + " last commit.",
                cause);
    }
}
