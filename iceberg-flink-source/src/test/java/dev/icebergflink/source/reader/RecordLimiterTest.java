package dev.icebergflink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecordLimiterTest {

    @Test
    void aLimitIsReachedAfterExactlyThatManyRows() {
        RecordLimiter limiter = RecordLimiter.of(3);
        assertThat(limiter.limited()).isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.reached()).as("after %d rows", i).isFalse();
            limiter.consume();
        }
        assertThat(limiter.reached()).isTrue();
    }

    @Test
    void aZeroLimitIsReachedAtOnce() {
        assertThat(RecordLimiter.of(0).reached()).isTrue();
    }

    @Test
    void withoutALimitNothingIsEverReached() {
        for (RecordLimiter limiter :
                new RecordLimiter[] {RecordLimiter.unlimited(), RecordLimiter.of(-5)}) {
            assertThat(limiter.limited()).isFalse();
            for (int i = 0; i < 10_000; i++) {
                limiter.consume();
            }
            assertThat(limiter.reached()).isFalse();
        }
    }
}
