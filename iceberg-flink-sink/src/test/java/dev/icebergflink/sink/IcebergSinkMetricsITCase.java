package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.BY_PART;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The sink's metrics through a real MiniCluster and Flink's {@link InMemoryReporter}: registered on
 * the writer's and the committer's operator groups, with values that match the table, and no name
 * collision with Flink's standard sink metrics.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IcebergSinkMetricsITCase {

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final List<String> WRITER_METRICS =
            List.of("recordsWritten", "bytesWritten", "filesWritten");
    private static final List<String> COMMITTER_METRICS =
            List.of("commitDurationMs", "lastSuccessfulCommitAgeMs", "failedCommits");

    /**
     * Flink's own sink-committer metric that Flink 2.1.1 registers again whenever its committer
     * operator copies its committable collector (every checkpoint): FLINK-35321, fixed in later
     * Flink releases. It is the only collision tolerated here; none of the sink's own names may
     * collide.
     */
    private static final String FLINK_35321_METRIC = "pendingCommittables";

    @TempDir Path warehouse;

    @Test
    void writerAndCommitterMetricsMatchTheTable() throws Exception {
        TableLoader loader = new SinkTestTables(warehouse).create(BY_PART, 2);
        int rows = 300;
        JobID job;
        List<String> collisions;
        try (TestingLogCapture log =
                TestingLogCapture.warnings("org.apache.flink.metrics.MetricGroup")) {
            StreamExecutionEnvironment env = SinkITCaseBase.env();
            SinkITCaseBase.generated(env, rows, 100, 3)
                    .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
            job = env.execute("metrics").getJobID();
            collisions = log.messages().stream().filter(m -> m.contains("Name collision")).toList();
            // the capture sees what Flink's metric groups log
            LoggerFactory.getLogger(MetricGroup.class).warn("capture check");
            assertThat(log.messages()).contains("capture check");
        }
        assertThat(SinkTestTables.rows(loader)).isEqualTo(SinkITCaseBase.expected(rows, 3));

        Table table = SinkTestTables.load(loader);
        long files = 0;
        long bytes = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                files++;
                bytes += file.fileSizeInBytes();
            }
        }
        assertThat(files).isPositive();

        List<Map<String, Metric>> writers = groupsWith(job, WRITER_METRICS.get(0));
        assertThat(writers).as("one writer group per subtask").hasSize(2);
        assertThat(sum(writers, "recordsWritten")).isEqualTo(rows);
        assertThat(sum(writers, "filesWritten")).isEqualTo(files);
        assertThat(sum(writers, "bytesWritten")).isEqualTo(bytes);
        for (Map<String, Metric> writer : writers) {
            assertThat(writer).containsKeys(WRITER_METRICS.toArray(String[]::new));
            // Flink's standard counters stay Flink's, fed with the same numbers
            assertThat(((Counter) writer.get("numRecordsSend")).getCount())
                    .isEqualTo(((Counter) writer.get("recordsWritten")).getCount());
        }

        // Flink runs the committer at the sink's parallelism; the one aggregation sends every
        // checkpoint's committable to one of them
        List<Map<String, Metric>> committers = groupsWith(job, COMMITTER_METRICS.get(0));
        assertThat(committers).hasSize(2);
        for (Map<String, Metric> committer : committers) {
            assertThat(committer)
                    .containsKeys(COMMITTER_METRICS.toArray(String[]::new))
                    .containsKey(FLINK_35321_METRIC);
            assertThat(((Counter) committer.get("failedCommits")).getCount()).isZero();
        }
        Map<String, Metric> committed =
                committers.stream()
                        .filter(m -> ((Counter) m.get("successfulCommittables")).getCount() > 0)
                        .findFirst()
                        .orElseThrow();
        assertThat(gauge(committed, "commitDurationMs")).isNotNegative();
        assertThat(gauge(committed, "lastSuccessfulCommitAgeMs")).isNotNegative();
        for (Map<String, Metric> idle : committers) {
            if (idle != committed
                    && ((Counter) idle.get("successfulCommittables")).getCount() == 0) {
                assertThat(gauge(idle, "lastSuccessfulCommitAgeMs"))
                        .as("no commit yet")
                        .isEqualTo(-1L);
            }
        }

        // no collision on any of the sink's names; the only one is Flink's own (FLINK-35321)
        List<String> ours = new ArrayList<>(WRITER_METRICS);
        ours.addAll(COMMITTER_METRICS);
        assertThat(collisions)
                .allSatisfy(
                        message -> {
                            assertThat(message).contains("'" + FLINK_35321_METRIC + "'");
                            ours.forEach(
                                    name -> assertThat(message).doesNotContain("'" + name + "'"));
                        });
    }

    private static List<Map<String, Metric>> groupsWith(JobID job, String metric) {
        List<Map<String, Metric>> groups = new ArrayList<>();
        for (OperatorMetricGroup group : REPORTER.findOperatorMetricGroups(job, ".*")) {
            Map<String, Metric> metrics = REPORTER.getMetricsByGroup(group);
            if (metrics.containsKey(metric)) {
                groups.add(metrics);
            }
        }
        return groups;
    }

    private static long gauge(Map<String, Metric> metrics, String name) {
        return (Long) ((Gauge<?>) metrics.get(name)).getValue();
    }

    private static long sum(List<Map<String, Metric>> groups, String counter) {
        return groups.stream().mapToLong(m -> ((Counter) m.get(counter)).getCount()).sum();
    }
}
