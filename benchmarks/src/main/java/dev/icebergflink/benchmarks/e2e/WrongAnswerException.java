package dev.icebergflink.benchmarks.e2e;

/**
 * A workload produced a wrong answer: the run fails. A class of its own (not nested in {@link
 * WorkloadRunner}) because the checks that throw it are shared with the launcher of Iceberg's
 * connector, which is compiled without our connector's classes.
 */
final class WrongAnswerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WrongAnswerException(String message) {
        super(message);
    }
}
