package dev.icebergflink.benchmarks.e2e;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws the summary as an SVG bar chart: one horizontal bar per workload with its median rows/s, a
 * whisker for the min–max of the runs, a red mark at the median rows/s of the limit (or reference)
 * the workload is compared with, and an orange mark at the median rows/s of the same workload
 * through Apache Iceberg's own Flink connector where that ran. The value column gives the ratio to
 * the limit (rows/s) and, where it ran, ours over Iceberg's connector in rows per CPU second.
 * Limits are drawn in grey.
 */
final class ThroughputChart {

    private static final int LABEL_WIDTH = 190;
    private static final int PLOT_WIDTH = 560;
    private static final int VALUE_WIDTH = 150;
    private static final int ROW_HEIGHT = 24;
    private static final int TOP = 48;
    private static final int BOTTOM = 40;
    private static final int CONNECTOR_WIDTH = 170;

    private ThroughputChart() {}

    static String svg(
            List<WorkloadSummary> summaries, List<ConnectorComparison> connector, String title) {
        Map<String, WorkloadSummary> byId = new HashMap<>();
        Map<Workload, ConnectorComparison> connectorOf = new HashMap<>();
        double max = 1;
        for (WorkloadSummary summary : summaries) {
            byId.put(summary.workload().id(), summary);
            max = Math.max(max, summary.maxRowsPerSecond());
        }
        for (ConnectorComparison comparison : connector) {
            connectorOf.put(comparison.workload(), comparison);
            max = Math.max(max, ConnectorComparison.medianRowsPerSecond(comparison.theirs()));
        }
        double scale = niceCeiling(max);
        int width =
                LABEL_WIDTH
                        + PLOT_WIDTH
                        + VALUE_WIDTH
                        + (connector.isEmpty() ? 0 : CONNECTOR_WIDTH);
        int height = TOP + ROW_HEIGHT * summaries.size() + BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\""
                                + " font-size=\"12\">%n",
                        width,
                        height,
                        width,
                        height));
        svg.append(
                String.format(
                        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n"
                                + "<text x=\"%d\" y=\"20\" font-size=\"14\""
                                + " font-weight=\"bold\">%s</text>%n",
                        8, escape(title)));
        svg.append(
                String.format(
                        "<text x=\"%d\" y=\"38\" fill=\"#555\">median rows/s per workload;"
                                + " whisker: min–max of the runs; red mark: the limit it is"
                                + " compared with%s</text>%n",
                        8,
                        connector.isEmpty()
                                ? ""
                                : "; orange mark: Iceberg's connector (value: ours / it per CPU"
                                        + " s)"));
        // grid lines and axis labels
        for (int i = 0; i <= 4; i++) {
            double x = LABEL_WIDTH + PLOT_WIDTH * i / 4.0;
            int bottom = TOP + ROW_HEIGHT * summaries.size();
            svg.append(
                    String.format(
                            Locale.ROOT,
                            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n"
                                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
                                    + " fill=\"#555\">%s</text>%n",
                            x,
                            TOP - 4,
                            x,
                            bottom,
                            x,
                            bottom + 16,
                            compact(scale * i / 4)));
        }
        int row = 0;
        for (WorkloadSummary summary : summaries) {
            int y = TOP + ROW_HEIGHT * row++;
            Workload workload = summary.workload();
            boolean limit = workload.reference() == null;
            double barWidth = PLOT_WIDTH * summary.medianRowsPerSecond() / scale;
            svg.append(
                    String.format(
                            Locale.ROOT,
                            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n"
                                    + "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                                    + " fill=\"%s\"/>%n",
                            LABEL_WIDTH - 8,
                            y + 16,
                            escape(workload.id()),
                            LABEL_WIDTH,
                            y + 4,
                            barWidth,
                            ROW_HEIGHT - 8,
                            limit ? "#9e9e9e" : "#4a7ebb"));
            double x1 = LABEL_WIDTH + PLOT_WIDTH * summary.minRowsPerSecond() / scale;
            double x2 = LABEL_WIDTH + PLOT_WIDTH * summary.maxRowsPerSecond() / scale;
            svg.append(
                    String.format(
                            Locale.ROOT,
                            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#222\"/>%n",
                            x1,
                            y + ROW_HEIGHT / 2,
                            x2,
                            y + ROW_HEIGHT / 2));
            WorkloadSummary reference =
                    workload.reference() == null ? null : byId.get(workload.reference());
            if (reference != null) {
                double x = LABEL_WIDTH + PLOT_WIDTH * reference.medianRowsPerSecond() / scale;
                svg.append(
                        String.format(
                                Locale.ROOT,
                                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d32f2f\""
                                        + " stroke-width=\"3\"><title>%s: %s rows/s</title></line>%n",
                                x,
                                y + 1,
                                x,
                                y + ROW_HEIGHT - 1,
                                escape(reference.workload().id()),
                                compact(reference.medianRowsPerSecond())));
            }
            ConnectorComparison theirs = connectorOf.get(workload);
            if (theirs != null) {
                double x =
                        LABEL_WIDTH
                                + PLOT_WIDTH
                                        * ConnectorComparison.medianRowsPerSecond(theirs.theirs())
                                        / scale;
                svg.append(
                        String.format(
                                Locale.ROOT,
                                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#f57c00\""
                                        + " stroke-width=\"3\"><title>Iceberg's connector: %s"
                                        + " rows/s</title></line>%n",
                                x,
                                y + 1,
                                x,
                                y + ROW_HEIGHT - 1,
                                compact(ConnectorComparison.medianRowsPerSecond(theirs.theirs()))));
            }
            String value =
                    compact(summary.medianRowsPerSecond())
                            + " rows/s"
                            + (Double.isNaN(summary.medianRatio())
                                    ? ""
                                    : String.format(Locale.ROOT, " (%.2fx)", summary.medianRatio()))
                            + (theirs == null || Double.isNaN(theirs.medianCpuRatio())
                                    ? ""
                                    : String.format(
                                            Locale.ROOT,
                                            "; %.2fx Iceberg's connector per CPU s",
                                            theirs.medianCpuRatio()));
            svg.append(
                    String.format(
                            "<text x=\"%d\" y=\"%d\">%s</text>%n",
                            LABEL_WIDTH + PLOT_WIDTH + 8, y + 16, escape(value)));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** 1, 2 or 5 times a power of ten, at least {@code value}. */
    static double niceCeiling(double value) {
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** 1234567 as "1.23M", 45600 as "45.6k". */
    static String compact(double value) {
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", value / 1e6);
        }
        if (value >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
