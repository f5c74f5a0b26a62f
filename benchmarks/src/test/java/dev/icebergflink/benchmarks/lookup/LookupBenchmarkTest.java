package dev.icebergflink.benchmarks.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the lookup benchmark at a small scale and checks its results and result lines. */
class LookupBenchmarkTest {

    @Test
    void measuresEveryModeAndPrintsOneJsonLinePerResult() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        List<LookupMeasurement> results = LookupBenchmark.run(2_000, 5_000, 20, 1, out);
        LookupBenchmark.printSummary(results, out);

        assertThat(results)
                .extracting(LookupMeasurement::workload)
                .containsExactly(
                        "lookup-full-load", "lookup-full", "lookup-none", "lookup-partial");
        assertThat(results)
                .extracting(LookupMeasurement::matched)
                .containsExactly(2_000L, 5_000L, 20L, 200L);
        assertThat(results.get(0).cacheBytes()).isPositive();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text.lines().filter(line -> line.startsWith("{\"workload\":\"lookup-")))
                .hasSize(4);
        assertThat(text).contains("# lookup-partial: median");
    }
}
