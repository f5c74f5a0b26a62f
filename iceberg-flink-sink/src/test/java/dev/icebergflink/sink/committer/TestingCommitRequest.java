package dev.icebergflink.sink.committer;

import org.apache.flink.api.connector.sink2.Committer.CommitRequest;

/** A {@link CommitRequest} that records what the committer signalled. */
final class TestingCommitRequest implements CommitRequest<IcebergCommittable> {

    /** What the committer did with the request. */
    enum Outcome {
        COMMITTED,
        ALREADY_COMMITTED,
        RETRY_LATER,
        FAILED_KNOWN,
        FAILED_UNKNOWN
    }

    private final IcebergCommittable committable;
    private int retries;
    private Outcome outcome = Outcome.COMMITTED;
    private Throwable failure;

    TestingCommitRequest(IcebergCommittable committable) {
        this(committable, 0);
    }

    TestingCommitRequest(IcebergCommittable committable, int retries) {
        this.committable = committable;
        this.retries = retries;
    }

    @Override
    public IcebergCommittable getCommittable() {
        return committable;
    }

    @Override
    public int getNumberOfRetries() {
        return retries;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
        outcome = Outcome.FAILED_KNOWN;
        failure = t;
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
        outcome = Outcome.FAILED_UNKNOWN;
        failure = t;
    }

    @Override
    public void retryLater() {
        outcome = Outcome.RETRY_LATER;
        retries++;
    }

    @Override
    public void updateAndRetryLater(IcebergCommittable committable) {
        throw new UnsupportedOperationException("the Iceberg committer never updates");
    }

    @Override
    public void signalAlreadyCommitted() {
        outcome = Outcome.ALREADY_COMMITTED;
    }

    /** Starts a new attempt: like Flink, a request nobody signals counts as committed. */
    void startAttempt() {
        outcome = Outcome.COMMITTED;
        failure = null;
    }

    Outcome outcome() {
        return outcome;
    }

    Throwable failure() {
        return failure;
    }
}
