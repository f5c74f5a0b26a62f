package dev.icebergflink;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

/**
 * Every Flink line runs this module's suites on its own Flink (profiles {@code flink-2.3}, {@code
 * flink-2.2}, {@code flink-2.1}, {@code flink-1.20}; CI also runs the jars built for 2.3 on 2.1 and
 * 2.2). This test fails when the Flink on the test class path is not the version the build asked
 * for, so a green run on a line really ran on that line.
 */
class FlinkLineTest {

    @Test
    void theFlinkOnTheClassPathIsTheOneThisBuildTargets() {
        String expected = System.getProperty("test.flink.version");
        assertThat(expected)
                .as("system property test.flink.version (set by the build)")
                .isNotBlank();
        assertThat(EnvironmentInformation.getVersion()).isEqualTo(expected);
    }
}
