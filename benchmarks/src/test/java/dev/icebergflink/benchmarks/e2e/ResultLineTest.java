package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultLineTest {

    private static final ResultLine LINE =
            new ResultLine(
                    "append-parquet",
                    2,
                    1_000_000,
                    12.5,
                    3,
                    123_456,
                    20.25,
                    812,
                    640,
                    Double.NaN,
                    "limit-write-parquet");

    @Test
    void formatsAndParsesBack() {
        String text = LINE.format();
        assertThat(text)
                .isEqualTo(
                        "BENCH workload=append-parquet run=2 rows=1000000 seconds=12.500"
                                + " rows_per_s=80000 ratio=- reference=limit-write-parquet files=3"
                                + " bytes=123456 cpu_s=20.25 peak_rss_mb=812 heap_after_gc_mb=640");
        assertThat(ResultLine.parse(text)).isEqualTo(LINE);
        ResultLine withRatio = LINE.withRatio(0.875, "limit-write-parquet");
        assertThat(withRatio.format()).contains(" ratio=0.875 ");
        assertThat(ResultLine.parse(withRatio.format()).ratio()).isEqualTo(0.875);
    }

    @Test
    void detailsFollowTheFixedKeysInOrderAndParseBack() {
        ResultLine line = LINE.withDetail("commits", "12").withDetail("p50_ms", "840");
        String text = line.withRatio(0.5, "append-parquet").format();
        assertThat(text).endsWith(" heap_after_gc_mb=640 commits=12 p50_ms=840");
        ResultLine parsed = ResultLine.parse(text);
        assertThat(parsed.details())
                .containsExactly(Map.entry("commits", "12"), Map.entry("p50_ms", "840"));
        assertThat(parsed.detail("commits")).isEqualTo(12.0);
        assertThat(parsed.detail("p99_ms")).isNaN();
        assertThat(parsed.ratio()).isEqualTo(0.5);
        assertThat(ResultLine.parse(LINE.format()).details()).isEmpty();
    }

    @Test
    void readsLinesWrittenBeforeTheHeapAfterGcExisted() {
        ResultLine old =
                ResultLine.parse(
                        "BENCH workload=append-parquet run=2 rows=1000000 seconds=12.500"
                                + " rows_per_s=80000 ratio=- reference=limit-write-parquet files=3"
                                + " bytes=123456 cpu_s=20.25 peak_rss_mb=812");
        assertThat(old.heapAfterGcMb()).isEqualTo(-1);
        assertThat(old.peakRssMb()).isEqualTo(812);
    }

    @Test
    void rejectsLinesThatAreNotResultsOrMissAKey() {
        assertThatThrownBy(() -> ResultLine.parse("workload=x"))
                .hasMessageContaining("must start with 'BENCH '");
        assertThatThrownBy(() -> ResultLine.parse("BENCH workload=x run=1"))
                .hasMessageContaining("Result line has no '");
        assertThatThrownBy(() -> ResultLine.parse("BENCH workload"))
                .hasMessageContaining("Malformed pair 'workload'");
    }

    @Test
    void ratioDividesByTheReferenceOfTheSameRound() {
        ResultLine limit =
                new ResultLine(
                        "limit-write-parquet", 2, 1_000_000, 10, 2, 1, 1, 1, -1, Double.NaN, "-");
        ResultLine rated =
                BenchmarkSuite.withRatio(
                        LINE, Workload.APPEND_PARQUET, Map.of("limit-write-parquet", limit));
        assertThat(rated.ratio()).isEqualTo(0.8);
        assertThat(BenchmarkSuite.withRatio(LINE, Workload.APPEND_PARQUET, Map.of()).ratio())
                .isNaN();
    }

    @Test
    void summarizesMediansAndRanges() {
        List<ResultLine> runs =
                List.of(
                        LINE.withRatio(0.9, "r"),
                        new ResultLine("append-parquet", 1, 100, 1, 1, 1, 1, 900, 700, 0.5, "r"),
                        new ResultLine("append-parquet", 3, 100, 4, 1, 1, 3, 700, -1, 0.7, "r"));
        WorkloadSummary summary = WorkloadSummary.of(runs).get(0);
        assertThat(summary.runs()).isEqualTo(3);
        assertThat(summary.medianRowsPerSecond()).isEqualTo(100.0);
        assertThat(summary.minRowsPerSecond()).isEqualTo(25.0);
        assertThat(summary.maxRowsPerSecond()).isEqualTo(80_000.0);
        assertThat(summary.medianRatio()).isEqualTo(0.7);
        assertThat(summary.peakRssMb()).isEqualTo(900);
        assertThat(summary.heapAfterGcMb()).isEqualTo(700);
        assertThat(summary.meetsTarget()).isFalse();
    }
}
