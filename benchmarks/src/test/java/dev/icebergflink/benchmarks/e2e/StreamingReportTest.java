package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report of the streaming workloads from their result lines' details: the throughput table with
 * ours / theirs per CPU second and commits, the upsert's read cost against {@code scan-parquet}
 * before and after the rewrite, and the freshness percentiles against their bound.
 */
class StreamingReportTest {

    private static final List<ResultLine> LINES =
            List.of(
                    ResultLine.parse(
                            "BENCH workload=scan-parquet run=1 rows=1000 seconds=1.000"
                                    + " rows_per_s=1000 ratio=- reference=- files=1 bytes=1"
                                    + " cpu_s=1.00 peak_rss_mb=1"),
                    ResultLine.parse(
                            "BENCH workload=stream-append run=1 rows=1000 seconds=2.000"
                                    + " rows_per_s=500 ratio=- reference=append-parquet files=4"
                                    + " bytes=1 cpu_s=4.00 peak_rss_mb=1 commits=3"),
                    ResultLine.parse(
                            "BENCH workload=reference-stream-append run=1 rows=1000"
                                    + " seconds=4.000 rows_per_s=250 ratio=-"
                                    + " reference=append-parquet files=2 bytes=1 cpu_s=8.00"
                                    + " peak_rss_mb=1 commits=5"),
                    ResultLine.parse(
                            "BENCH workload=stream-upsert run=1 rows=250 seconds=1.000"
                                    + " rows_per_s=250 ratio=- reference=upsert files=4 bytes=1"
                                    + " cpu_s=1.00 peak_rss_mb=1 commits=2 eq_delete_rows=250"
                                    + " scan_rows_per_s=500 scan_cpu_s=2.00 rewrite_s=0.500"
                                    + " rewritten_scan_rows_per_s=800 rewritten_scan_cpu_s=1.25"),
                    ResultLine.parse(
                            "BENCH workload=reference-stream-upsert run=1 rows=250"
                                    + " seconds=1.000 rows_per_s=250 ratio=- reference=upsert"
                                    + " files=4 bytes=1 cpu_s=2.00 peak_rss_mb=1 commits=2"
                                    + " eq_delete_rows=250 scan_rows_per_s=400 scan_cpu_s=2.50"),
                    ResultLine.parse(
                            "BENCH workload=stream-freshness run=1 rows=1000 seconds=1.000"
                                    + " rows_per_s=1000 ratio=- reference=- files=1 bytes=1"
                                    + " cpu_s=1.00 peak_rss_mb=1 commits=10 p50_ms=900"
                                    + " p99_ms=1500 max_ms=1500 bound_ms=3000 within=yes"),
                    ResultLine.parse(
                            "BENCH workload=stream-freshness run=2 rows=1000 seconds=1.000"
                                    + " rows_per_s=1000 ratio=- reference=- files=1 bytes=1"
                                    + " cpu_s=1.00 peak_rss_mb=1 commits=12 p50_ms=1100"
                                    + " p99_ms=3500 max_ms=3600 bound_ms=3000 within=no"),
                    ResultLine.parse(
                            "BENCH workload=reference-stream-freshness run=1 rows=1000"
                                    + " seconds=1.000 rows_per_s=1000 ratio=- reference=- files=1"
                                    + " bytes=1 cpu_s=1.00 peak_rss_mb=1 commits=9 p50_ms=1200"
                                    + " p99_ms=2000 max_ms=2000 bound_ms=3000 within=yes"));

    @Test
    void reportsThroughputReadCostAndFreshness() {
        StreamingReport report = new StreamingReport(LINES, WorkloadSummary.of(LINES));
        String md = report.markdown();

        assertThat(report.isEmpty()).isFalse();
        assertThat(md).startsWith("## Streaming workloads\n");
        // ours 250 rows per CPU s, theirs 125
        assertThat(md)
                .contains("| stream-append | 1,000 | 500 | 250 | 250 | 125 | **2.00x** | 3 | 5 |");
        assertThat(md)
                .contains("| stream-upsert | 250 | 250 | 250 | 250 | 125 | **2.00x** | 2 | 2 |");
        // the scans against scan-parquet's 1,000 rows/s, after / before 1.6x
        assertThat(md).contains("| ours | 250 | 500 | 0.50x | 0.50 | 800 | 0.80x | 1.60x |");
        assertThat(md).contains("| Iceberg's connector | 250 | 400 | 0.40x | – | – | – | – |");
        // median p50 of the rounds, the worst p99; one round out of bounds fails "within"
        assertThat(md)
                .contains("| ours | 2 | 1,000 | 11 | 1,000 | 3,500 | 3,600 | 3,000 | **no** |");
        assertThat(md)
                .contains(
                        "| Iceberg's connector | 1 | 1,000 | 9 | 1,200 | 2,000 | 2,000 | 3,000 | yes |");
        assertThat(report.console())
                .contains("stream-freshness             freshness p50 1,000 ms, p99 3,500 ms")
                .contains("within no")
                .contains("after RewriteEqualityDeletes 800 rows/s");
    }

    @Test
    void isEmptyWithoutStreamingWorkloads() {
        StreamingReport report = new StreamingReport(LINES.subList(0, 1), List.of());
        assertThat(report.isEmpty()).isTrue();
        assertThat(report.markdown()).isEmpty();
    }
}
