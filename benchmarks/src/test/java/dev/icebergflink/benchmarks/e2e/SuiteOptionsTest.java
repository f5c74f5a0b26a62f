package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SuiteOptionsTest {

    @Test
    void warmsUpOnATenthOfTheRowsAtMostHalfAMillion() {
        assertThat(SuiteOptions.parse(new String[0]).warmupRows()).isEqualTo(500_000L);
        assertThat(SuiteOptions.parse(new String[] {"--rows", "2000000"}).warmupRows())
                .isEqualTo(200_000L);
        assertThat(SuiteOptions.parse(new String[] {"--rows", "20"}).warmupRows()).isZero();
        assertThat(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--warmup-rows", "0"})
                                .warmupRows())
                .isZero();
        assertThat(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--warmup-rows", "1000"})
                                .warmupRows())
                .isEqualTo(1000L);
    }

    @Test
    void rejectsWarmupsLargerThanTheRunOrTooSmall() {
        assertThatThrownBy(
                        () ->
                                SuiteOptions.parse(
                                        new String[] {"--rows", "1000", "--warmup-rows", "1001"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--warmup-rows must be 0 (no warm-up) or between 4 and")
                .hasMessageContaining("got 1001");
        assertThatThrownBy(() -> SuiteOptions.parse(new String[] {"--warmup-rows", "2"}))
                .hasMessageContaining("got 2");
        assertThatThrownBy(() -> SuiteOptions.parse(new String[] {"--warmup", "2"}))
                .hasMessageContaining("Unknown option --warmup; allowed: --rows --warmup-rows");
    }
}
