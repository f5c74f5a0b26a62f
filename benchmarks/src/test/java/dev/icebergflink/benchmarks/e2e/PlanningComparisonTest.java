package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.benchmarks.planning.PlanningLine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planning comparison's table: medians per size and side, and theirs over ours. */
class PlanningComparisonTest {

    @Test
    void tabulatesMediansAndRatios() {
        List<PlanningLine> lines =
                List.of(
                        new PlanningLine(
                                "ours",
                                "planning-bounded",
                                1000,
                                1,
                                40,
                                3.0,
                                3.0,
                                40,
                                20_000,
                                50,
                                300),
                        new PlanningLine(
                                "ours",
                                "planning-paged",
                                1000,
                                1,
                                40,
                                2.0,
                                0.5,
                                10,
                                5_000,
                                -1,
                                310),
                        new PlanningLine(
                                "ours",
                                "planning-bounded",
                                1000,
                                2,
                                40,
                                1.0,
                                1.0,
                                40,
                                20_000,
                                40,
                                320),
                        new PlanningLine(
                                "ours",
                                "planning-paged",
                                1000,
                                2,
                                40,
                                1.0,
                                0.3,
                                10,
                                5_000,
                                -1,
                                330),
                        new PlanningLine(
                                "iceberg",
                                "planning",
                                1000,
                                1,
                                40,
                                6.0,
                                6.0,
                                40,
                                400_000,
                                100,
                                500),
                        new PlanningLine(
                                "iceberg",
                                "planning",
                                1000,
                                2,
                                40,
                                2.0,
                                2.0,
                                40,
                                400_000,
                                80,
                                520));

        String md = PlanningComparison.markdown(lines, 2, "3g");

        assertThat(md)
                .contains(
                        "| 1,000 | ours | all at once | 40 | 2.00 (1.00–3.00) | 2.00 | 40 | 20,000 | 500 | 40 | 320 |")
                .contains(
                        "| 1,000 | ours | paged, as for full scans | 40 | 1.50 (1.00–2.00) | 0.40 | 10 | 5,000 | 500 | – | 330 |")
                .contains(
                        "| 1,000 | Iceberg's connector | all at once (`FlinkSplitPlanner`) | 40 | 4.00 (2.00–6.00) | 4.00 | 40 | 400,000 | 10000 | 80 | 520 |")
                // 4.00 s / 2.00 s, 400,000 / 20,000 bytes, 80 / 40 MiB
                .contains("| 1,000 | 2.00x | 20.0x | 2.0x |")
                .contains("`-Xmx3g`");
    }
}
