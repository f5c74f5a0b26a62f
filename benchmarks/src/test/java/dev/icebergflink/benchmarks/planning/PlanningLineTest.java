package dev.icebergflink.benchmarks.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The planning comparison's line: printed and parsed back, and its errors. */
class PlanningLineTest {

    @Test
    void formatsAndParsesBack() {
        PlanningLine line =
                new PlanningLine(
                        "iceberg",
                        "planning",
                        100000,
                        2,
                        3125,
                        1.5,
                        1.5,
                        3125,
                        99_000_000,
                        800,
                        1900);
        assertThat(line.format())
                .isEqualTo(
                        "PLAN connector=iceberg workload=planning files=100000 run=2 splits=3125"
                                + " seconds=1.500 first_page_s=1.500 pending_splits=3125"
                                + " state_bytes=99000000 heap_mb=800 peak_rss_mb=1900");
        assertThat(PlanningLine.parse(line.format())).isEqualTo(line);
        assertThat(line.bytesPerPendingSplit()).isEqualTo(99_000_000 / 3125.0);
        assertThatThrownBy(() -> PlanningLine.parse("PLAN connector=ours"))
                .hasMessageContaining("has no 'workload'");
        assertThatThrownBy(() -> PlanningLine.parse("BENCH x=1"))
                .hasMessageContaining("must start with 'PLAN '");
    }
}
