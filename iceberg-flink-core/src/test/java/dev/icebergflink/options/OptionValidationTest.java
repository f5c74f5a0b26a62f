package dev.icebergflink.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionValidationTest {

    @Test
    void validKeysIncludeAlternativeKeysSorted() {
        assertThat(OptionValidation.validKeys(TestingOptions.ALL))
                .containsExactly(
                        "compaction-enabled",
                        "distribution-mode",
                        "flink-maintenance.rewrite.enabled",
                        "monitor-interval",
                        "split-size",
                        "streaming",
                        "worker-pool-size",
                        "write-buffer");
    }

    @Test
    void knownKeysPass() {
        assertThatCode(
                        () ->
                                OptionValidation.checkKnownKeys(
                                        Set.of("split-size", "compaction-enabled", "streaming"),
                                        TestingOptions.ALL))
                .doesNotThrowAnyException();
        assertThat(OptionValidation.unknownKeys(Set.of(), TestingOptions.ALL)).isEmpty();
    }

    @Test
    void unknownKeysAreListedSortedWithSuggestionsAndTheValidKeys() {
        List<String> keys = List.of("streaming", "splitsize", "bogus-option", "Streaming");

        assertThat(OptionValidation.unknownKeys(keys, TestingOptions.ALL))
                .containsExactly("Streaming", "bogus-option", "splitsize");
        assertThatThrownBy(() -> OptionValidation.checkKnownKeys(keys, TestingOptions.ALL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown options 'Streaming' (did you mean 'streaming'?), 'bogus-option',"
                                + " 'splitsize' (did you mean 'split-size'?). Valid options are:"
                                + " compaction-enabled, distribution-mode,"
                                + " flink-maintenance.rewrite.enabled, monitor-interval, split-size,"
                                + " streaming, worker-pool-size, write-buffer");
    }

    @Test
    void singleUnknownKeyMessage() {
        assertThat(
                        OptionValidation.unknownKeysMessage(
                                List.of("monitor-intervall"),
                                List.of(TestingOptions.MONITOR_INTERVAL, TestingOptions.STREAMING)))
                .isEqualTo(
                        "Unknown option 'monitor-intervall' (did you mean 'monitor-interval'?)."
                                + " Valid options are: monitor-interval, streaming");
    }
}
