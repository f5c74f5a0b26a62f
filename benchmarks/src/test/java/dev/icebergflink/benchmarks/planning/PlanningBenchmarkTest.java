package dev.icebergflink.benchmarks.planning;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the planning benchmark at a small scale and checks its results and result lines. */
class PlanningBenchmarkTest {

    @Test
    void plansEveryFileBothWaysAndPrintsOneJsonLinePerResult() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        // 640 small files pack into 20 splits of 32; a page size of 6 needs 4 pages.
        List<PlanningMeasurement> results = PlanningBenchmark.run(640, 1, 6, out);
        PlanningBenchmark.printSummary(results, out);

        assertThat(results)
                .extracting(PlanningMeasurement::workload)
                .containsExactly("planning-bounded", "planning-paged");
        PlanningMeasurement bounded = results.get(0);
        PlanningMeasurement paged = results.get(1);
        assertThat(bounded.files()).isEqualTo(640);
        assertThat(bounded.splits()).isEqualTo(20);
        assertThat(bounded.pendingSplits()).isEqualTo(20);
        assertThat(paged.splits()).isEqualTo(20);
        assertThat(paged.pendingSplits()).isEqualTo(6);
        assertThat(bounded.stateBytes()).isGreaterThan(paged.stateBytes());
        assertThat(bounded.bytesPerSplit())
                .isEqualTo((double) bounded.stateBytes() / 20)
                .isEqualTo(bounded.bytesPerFile() * 32);

        List<String> lines =
                bytes.toString(StandardCharsets.UTF_8)
                        .lines()
                        .filter(line -> line.startsWith("{"))
                        .toList();
        assertThat(lines).hasSize(2);
        JsonNode json = new ObjectMapper().readTree(lines.get(0));
        assertThat(json.get("workload").asText()).isEqualTo("planning-bounded");
        assertThat(json.get("files").asInt()).isEqualTo(640);
        assertThat(json.get("splits").asInt()).isEqualTo(20);
        assertThat(json.get("stateBytes").asLong()).isEqualTo(bounded.stateBytes());
        assertThat(json.has("seconds")).isTrue();
        assertThat(json.has("bytesPerSplit")).isTrue();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("# planning-paged");
    }
}
