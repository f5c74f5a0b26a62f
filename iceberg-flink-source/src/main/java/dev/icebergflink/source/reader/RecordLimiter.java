package dev.icebergflink.source.reader;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts down the rows one reader subtask may still emit, for the source's {@code limit}. One
 * instance is shared by every split reader a source reader creates over its life, so the limit
 * holds across splits and across fetcher restarts.
 *
 * <p>The limit is per reader subtask; the enumerator makes it the source's limit by handing every
 * split of a limited read to one reader.
 */
final class RecordLimiter {

    private final AtomicLong remaining;
    private final boolean limited;

    private RecordLimiter(long limit, boolean limited) {
        this.remaining = new AtomicLong(limit);
        this.limited = limited;
    }

    /** A limiter for at most {@code limit} rows; a negative limit means no limit. */
    static RecordLimiter of(long limit) {
        return new RecordLimiter(limit < 0 ? Long.MAX_VALUE : limit, limit >= 0);
    }

    /** Whether there is a limit at all. */
    boolean limited() {
        return limited;
    }

    /** No limit. */
    static RecordLimiter unlimited() {
        return of(-1);
    }

    /** Whether the limit is used up; always false without a limit. */
    boolean reached() {
        return limited && remaining.get() <= 0;
    }

    /** Takes one row off the limit; free without a limit (no atomic update per row). */
    void consume() {
        if (limited) {
            remaining.decrementAndGet();
        }
    }
}
