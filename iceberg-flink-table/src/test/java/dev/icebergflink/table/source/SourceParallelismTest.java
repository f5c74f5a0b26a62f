package dev.icebergflink.table.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.table.FlinkConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

class SourceParallelismTest {

    @Test
    void infersFromSplitsCappedByMaxAndLimitAndAtLeastOne() {
        Configuration config = new Configuration();
        assertThat(SourceParallelism.choose(config, null, true, atMost -> Math.min(7, atMost), -1))
                .isEqualTo(7);
        assertThat(SourceParallelism.choose(config, null, true, atMost -> Math.min(0, atMost), -1))
                .isEqualTo(1);
        assertThat(SourceParallelism.choose(config, null, true, atMost -> Math.min(7, atMost), 3))
                .isEqualTo(3);
        assertThat(SourceParallelism.choose(config, null, true, atMost -> Math.min(7, atMost), 0))
                .isEqualTo(1);
        assertThat(
                        SourceParallelism.choose(
                                config, null, true, atMost -> Math.min(500, atMost), -1))
                .isEqualTo(100);
        config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX, 4);
        assertThat(SourceParallelism.choose(config, null, true, atMost -> Math.min(7, atMost), -1))
                .isEqualTo(4);
    }

    @Test
    void scanParallelismWinsAndStreamingOrDisabledLeavesItToFlink() {
        Configuration config = new Configuration();
        assertThat(
                        SourceParallelism.choose(
                                config,
                                5,
                                true,
                                atMost -> {
                                    throw new AssertionError("no planning needed");
                                },
                                -1))
                .isEqualTo(5);
        assertThat(SourceParallelism.choose(config, null, false, atMost -> Math.min(7, atMost), -1))
                .isNull();
        config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM, false);
        assertThat(SourceParallelism.choose(config, null, true, atMost -> Math.min(7, atMost), -1))
                .isNull();
        assertThatThrownBy(
                        () ->
                                SourceParallelism.choose(
                                        config, 0, true, atMost -> Math.min(7, atMost), -1))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("scan.parallelism");
    }
}
