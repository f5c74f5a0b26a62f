package dev.icebergflink.source.reader;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts down the rows one reader subtask may still emit, for the source's {@code limit}. One
 * instance is shared by every split reader a source reader creates over its life, so the limit
 * holds across splits and across fetcher restarts.
 *
 * <p>The limit is per reader subtask: with parallelism p a source emits at most {@code limit * p}
 * rows.
 */
final class RecordLimiter {

    private final AtomicLong remaining;

    private RecordLimiter(long limit) {
        this.remaining = new AtomicLong(limit);
    }

    /** A limiter for at most {@code limit} rows; a negative limit means no limit. */
    static RecordLimiter of(long limit) {
        return new RecordLimiter(limit < 0 ? Long.MAX_VALUE : limit);
    }

    /** No limit. */
    static RecordLimiter unlimited() {
        return of(-1);
    }

    /** Whether the limit is used up. */
    boolean reached() {
        return remaining.get() <= 0;
    }

    /** Takes one row off the limit. */
    void consume() {
        remaining.decrementAndGet();
    }
}
