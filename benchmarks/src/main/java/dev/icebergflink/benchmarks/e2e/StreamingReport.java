package dev.icebergflink.benchmarks.e2e;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The streaming workloads side by side with their runs through Iceberg's own connector: the
 * streaming append's and upsert's rows/s, rows per CPU second and commits; the read cost the
 * streaming upsert leaves behind (a full scan of its result against {@code scan-parquet}'s rate,
 * and the same scan after {@code RewriteEqualityDeletes}); and the freshness of a streaming read
 * (p50 and p99 of the time from a commit to its rows in the reader) against its bound. The suite
 * prints it after its summary and the report gives it a section of its own, since these numbers
 * live in the result lines' details rather than in rows/s alone.
 */
final class StreamingReport {

    private final List<ResultLine> lines;
    private final List<WorkloadSummary> summaries;

    StreamingReport(List<ResultLine> lines, List<WorkloadSummary> summaries) {
        this.lines = lines;
        this.summaries = summaries;
    }

    /** Whether any streaming workload ran. */
    boolean isEmpty() {
        return Arrays.stream(Workload.values())
                .filter(w -> w.kind().streaming())
                .allMatch(w -> runs(w.id()).isEmpty());
    }

    private List<ResultLine> runs(String id) {
        return lines.stream().filter(line -> line.workload().equals(id)).toList();
    }

    private static double median(List<ResultLine> runs, ToDoubleFunction<ResultLine> value) {
        double[] values = runs.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).toArray();
        return values.length == 0 ? Double.NaN : WorkloadSummary.median(values);
    }

    private static double max(List<ResultLine> runs, String detail) {
        return runs.stream()
                .mapToDouble(line -> line.detail(detail))
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(Double.NaN);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String times(double value) {
        return Double.isNaN(value) || Double.isInfinite(value)
                ? "–"
                : String.format(Locale.ROOT, "%.2fx", value);
    }

    /** The report's section, or "" when no streaming workload ran. */
    String markdown() {
        if (isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Streaming workloads\n\n");
        md.append(
                "Streaming jobs (parallelism 2, a checkpoint every "
                        + WorkloadJobs.CHECKPOINT_INTERVAL.toSeconds()
                        + " s, every checkpoint commits) over the generated rows, whose bounded"
                        + " generator ends the job after a final checkpoint and its commit (part of"
                        + " the measured runtime). Through Iceberg's own connector with its"
                        + " `IcebergSink` (append), `FlinkSink` with `upsert(true)` (upsert) and"
                        + " `IcebergSource` with `streaming(true)` (freshness). Medians of the"
                        + " rounds; ours / theirs is the median of the rounds' ratios of rows per"
                        + " CPU second.\n\n");
        md.append(
                "| workload | rows | ours rows/s | theirs rows/s | ours rows per CPU s | theirs rows"
                        + " per CPU s | **ours / theirs** (per CPU s) | ours commits | theirs"
                        + " commits |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Workload workload : Workload.values()) {
            if (!workload.kind().streaming()) {
                continue;
            }
            List<ResultLine> ours = runs(workload.id());
            if (ours.isEmpty()) {
                continue;
            }
            List<ResultLine> theirs = runs(workload.connectorReferenceId());
            String ratio =
                    ConnectorComparison.of(lines, workload)
                            .map(c -> ConnectorComparison.times(c.cpuRatios()))
                            .orElse("–");
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %,d | %s | %s | %s | %s | **%s** | %s | %s |%n",
                            workload.id(),
                            ours.get(ours.size() - 1).rows(),
                            number(median(ours, ResultLine::rowsPerSecond)),
                            number(median(theirs, ResultLine::rowsPerSecond)),
                            number(median(ours, ConnectorComparison::rowsPerCpuSecond)),
                            number(median(theirs, ConnectorComparison::rowsPerCpuSecond)),
                            ratio,
                            number(median(ours, line -> line.detail("commits"))),
                            number(median(theirs, line -> line.detail("commits")))));
        }
        md.append(
                "\n`stream-upsert` rewrites every fourth key of a table written by the generic"
                        + " writer (rows = the rewritten keys); `stream-freshness` writes at a"
                        + " steady "
                        + String.format(Locale.ROOT, "%,d", WorkloadJobs.FRESHNESS_ROWS_PER_SECOND)
                        + " rows/s (at most "
                        + WorkloadJobs.FRESHNESS_SECONDS
                        + " s of rows), so its rows/s is the pace, and its CPU includes the"
                        + " streaming read running beside the writer.\n\n");
        md.append(upsertReads());
        md.append(freshness());
        return md.toString();
    }

    private String upsertReads() {
        List<ResultLine> ours = runs(Workload.STREAM_UPSERT.id());
        if (ours.isEmpty()) {
            return "";
        }
        List<ResultLine> theirs = runs(Workload.STREAM_UPSERT.connectorReferenceId());
        double scanParquet =
                summaries.stream()
                        .filter(s -> s.workload() == Workload.SCAN_PARQUET)
                        .mapToDouble(WorkloadSummary::medianRowsPerSecond)
                        .findFirst()
                        .orElse(Double.NaN);
        double oursScan = median(ours, line -> line.detail("scan_rows_per_s"));
        double oursRewritten = median(ours, line -> line.detail("rewritten_scan_rows_per_s"));
        double theirsScan = median(theirs, line -> line.detail("scan_rows_per_s"));
        StringBuilder md = new StringBuilder("### The read cost a streaming upsert leaves\n\n");
        md.append(
                "A streaming upsert writes an equality delete per rewritten key. After the upsert"
                        + " (outside its measured part) the child scans the whole table with a"
                        + " batch full scan (`IcebergSource`, parallelism 2, a counting sink), then"
                        + " ours runs `RewriteEqualityDeletes` (its steps directly, 2 workers, as"
                        + " the `eqdelete-*` workloads do) and scans again; the content is checked"
                        + " before and after with Iceberg's generic reader (every key once, the"
                        + " rewritten ones with their new values). Iceberg's connector has no"
                        + " conversion of equality deletes (its maintenance compacts whole files),"
                        + " so its row has the scan before only. `scan-parquet` is the full scan"
                        + " of a table of the same rows without deletes"
                        + (Double.isNaN(scanParquet) ? " (not run this time)" : "")
                        + ".\n\n");
        md.append(
                "| connector | equality-delete rows | scan rows/s | scan / scan-parquet | rewrite s |"
                        + " scan after rewrite rows/s | after / scan-parquet | after / before |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "| ours | %s | %s | %s | %s | %s | %s | %s |%n",
                        number(median(ours, line -> line.detail("eq_delete_rows"))),
                        number(oursScan),
                        times(oursScan / scanParquet),
                        seconds(median(ours, line -> line.detail("rewrite_s"))),
                        number(oursRewritten),
                        times(oursRewritten / scanParquet),
                        times(oursRewritten / oursScan)));
        if (!theirs.isEmpty()) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| Iceberg's connector | %s | %s | %s | – | – | – | – |%n",
                            number(median(theirs, line -> line.detail("eq_delete_rows"))),
                            number(theirsScan),
                            times(theirsScan / scanParquet)));
        }
        md.append("\n");
        return md.toString();
    }

    private static String seconds(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.2f", value);
    }

    private String freshness() {
        List<ResultLine> ours = runs(Workload.STREAM_FRESHNESS.id());
        if (ours.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("### Freshness of a streaming read\n\n");
        md.append(
                "A streaming append (checkpoint every "
                        + WorkloadJobs.CHECKPOINT_INTERVAL.toSeconds()
                        + " s) and, in the same JVM, an unbounded streaming read of the same table"
                        + " (`monitor-interval` "
                        + WorkloadJobs.MONITOR_INTERVAL.toSeconds()
                        + " s, started before the first commit) into a sink that records when each"
                        + " row arrives and checks it arrives once with its generated values. A"
                        + " commit's freshness is the time from its snapshot's timestamp to the"
                        + " arrival of its last row; a commit's rows are found by the id bounds of"
                        + " the data files it added. p50 is the median of the rounds' p50, p99 and"
                        + " the largest are the worst of the rounds; the bound is the checkpoint"
                        + " interval + the monitor interval + 1 s = "
                        + WorkloadJobs.freshnessBoundMillis()
                        + " ms, and \"within\" holds when both percentiles of every round are.\n\n");
        md.append(
                "| connector | rounds | rows | commits | p50 ms | p99 ms | largest ms | bound ms |"
                        + " within |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        md.append(freshnessRow("ours", ours));
        List<ResultLine> theirs = runs(Workload.STREAM_FRESHNESS.connectorReferenceId());
        if (!theirs.isEmpty()) {
            md.append(freshnessRow("Iceberg's connector", theirs));
        }
        md.append("\n");
        return md.toString();
    }

    private static String freshnessRow(String who, List<ResultLine> runs) {
        boolean within =
                runs.stream().allMatch(line -> Objects.equals(line.details().get("within"), "yes"));
        return String.format(
                Locale.ROOT,
                "| %s | %d | %,d | %s | %s | %s | %s | %s | %s |%n",
                who,
                runs.size(),
                runs.get(runs.size() - 1).rows(),
                number(median(runs, line -> line.detail("commits"))),
                number(median(runs, line -> line.detail("p50_ms"))),
                number(max(runs, "p99_ms")),
                number(max(runs, "max_ms")),
                number(runs.get(0).detail("bound_ms")),
                within ? "yes" : "**no**");
    }

    /** The console lines of the freshness and upsert reads, or "" when none ran. */
    String console() {
        StringBuilder out = new StringBuilder();
        for (String id :
                List.of(
                        Workload.STREAM_FRESHNESS.id(),
                        Workload.STREAM_FRESHNESS.connectorReferenceId())) {
            List<ResultLine> runs = runs(id);
            if (!runs.isEmpty()) {
                out.append(
                        String.format(
                                Locale.ROOT,
                                "%-28s freshness p50 %s ms, p99 %s ms (bound %s ms): within %s%n",
                                id,
                                number(median(runs, line -> line.detail("p50_ms"))),
                                number(max(runs, "p99_ms")),
                                number(runs.get(0).detail("bound_ms")),
                                runs.stream()
                                                .allMatch(
                                                        line ->
                                                                Objects.equals(
                                                                        line.details()
                                                                                .get("within"),
                                                                        "yes"))
                                        ? "yes"
                                        : "no"));
            }
        }
        for (String id :
                List.of(
                        Workload.STREAM_UPSERT.id(),
                        Workload.STREAM_UPSERT.connectorReferenceId())) {
            List<ResultLine> runs = runs(id);
            if (!runs.isEmpty()) {
                out.append(
                        String.format(
                                Locale.ROOT,
                                "%-28s scan of the upserted table %s rows/s, after"
                                        + " RewriteEqualityDeletes %s rows/s%n",
                                id,
                                number(median(runs, line -> line.detail("scan_rows_per_s"))),
                                number(
                                        median(
                                                runs,
                                                line ->
                                                        line.detail(
                                                                "rewritten_scan_rows_per_s")))));
            }
        }
        return out.toString();
    }
}
