package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.Jobs;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.mapping.MappingUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builder options whose effect needs a running job to observe, and the source's metrics (through
 * Flink's {@link InMemoryReporter}): watermark-column mode, a v3 table with deletion vectors,
 * {@code splitLookback}, {@code maxPlanningSnapshotCount}, {@code nameMapping} and {@code
 * planParallelism}.
 */
class IcebergSourceOptionsITCase {

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .build());

    @TempDir Path dir;
    private String location;
    private Table table;
    private TableLoader loader;

    @BeforeEach
    void createTable() {
        location = dir.resolve("t").toString();
        table = SourceTestTables.create(location, 2);
        loader = TableLoader.fromHadoopTable(location);
    }

    private static StreamExecutionEnvironment env(int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        return env;
    }

    /** A started job and its result iterator. */
    private record Running<T>(JobClient client, CloseableIterator<T> results) {}

    private static <T> Running<T> start(StreamExecutionEnvironment env, DataStream<T> stream)
            throws Exception {
        CloseableIterator<T> results = stream.collectAsync();
        return new Running<>(env.executeAsync(), results);
    }

    private static <T> Running<T> start(IcebergSource<T> source, int parallelism) throws Exception {
        StreamExecutionEnvironment env = env(parallelism);
        return start(
                env,
                env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg",
                        source.getProducedType()));
    }

    private static <T> List<T> drain(Running<T> running) throws Exception {
        List<T> out = new ArrayList<>();
        try (CloseableIterator<T> it = running.results()) {
            it.forEachRemaining(out::add);
        }
        running.client().getJobExecutionResult().get();
        return out;
    }

    /**
     * The metrics of the source operator of a job (enumerator and readers) whose identifier ends
     * with {@code "." + suffix}.
     */
    private static List<Metric> metrics(JobID job, String suffix) {
        List<Metric> found = new ArrayList<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> group :
                REPORTER.getMetricsByGroup().entrySet()) {
            Map<String, String> variables = group.getKey().getAllVariables();
            if (!job.toString().equals(variables.get("<job_id>"))
                    || !String.valueOf(variables.get("<operator_name>"))
                            .startsWith("Source: iceberg")) {
                continue;
            }
            for (Map.Entry<String, Metric> metric : group.getValue().entrySet()) {
                String id = group.getKey().getMetricIdentifier(metric.getKey());
                if (id.endsWith("." + suffix)
                        && found.stream().noneMatch(m -> m == metric.getValue())) {
                    found.add(metric.getValue()); // a metric shows in its group and subgroups
                }
            }
        }
        return found;
    }

    private static long sumCounters(JobID job, String suffix) {
        List<Metric> found = metrics(job, suffix);
        assertThat(found).as("metrics named *%s", suffix).isNotEmpty();
        return found.stream().mapToLong(m -> ((Counter) m).getCount()).sum();
    }

    private static Object gauge(JobID job, String suffix) {
        List<Metric> found = metrics(job, suffix);
        assertThat(found).as("metrics named *%s", suffix).hasSize(1);
        return ((Gauge<?>) found.get(0)).getValue();
    }

    private static void await(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting for " + what);
            }
            LockSupport.parkNanos(5_000_000L);
        }
    }

    @Test
    void metricsAreRegisteredAndCountWhatWasRead() throws Exception {
        SourceTestTables.appendFiles(table, 0, 60, 10); // 6 files
        long bytes = 0; // numBytesIn counts the byte ranges of the planned file tasks
        try (var tasks = table.newScan().planTasks()) {
            for (var task : tasks) {
                bytes += task.files().stream().mapToLong(FileScanTask::length).sum();
            }
        }
        Running<RowData> running =
                start(
                        IcebergSource.forRowData()
                                .tableLoader(loader)
                                .splitOpenFileCost(128L * 1024 * 1024)
                                .build(),
                        2);
        JobID job = running.client().getJobID();
        List<RowData> rows = drain(running);
        assertThat(SourceTestTables.ids(rows)).isEqualTo(SourceTestTables.range(0, 60));

        assertThat(sumCounters(job, "enumerator.assignedSplits")).isEqualTo(6);
        assertThat(gauge(job, "enumerator.pendingSplits")).isEqualTo(0);
        assertThat(gauge(job, "enumerator.enumerationLagMs")).isEqualTo(0L);
        assertThat(sumCounters(job, "IcebergSourceReader.assignedSplits")).isEqualTo(6);
        assertThat(sumCounters(job, "IcebergSourceReader.finishedSplits")).isEqualTo(6);
        assertThat(sumCounters(job, "IcebergSourceReader.finishedFileTasks")).isEqualTo(6);
        assertThat(sumCounters(job, "numRecordsIn")).isEqualTo(60);
        assertThat(sumCounters(job, "numBytesIn")).isEqualTo(bytes);
    }

    @Test
    void maxPlanningSnapshotCountCoversOneSnapshotPerRound() throws Exception {
        SourceTestTables.append(table, 0, 10);
        SourceTestTables.append(table, 10, 20);
        SourceTestTables.append(table, 20, 30);
        Running<RowData> running =
                start(
                        IcebergSource.forRowData()
                                .tableLoader(loader)
                                .streaming(true)
                                .streamingStartingStrategy(
                                        StreamingStartingStrategy
                                                .INCREMENTAL_FROM_EARLIEST_SNAPSHOT)
                                .monitorInterval(Duration.ofMillis(1500))
                                .maxPlanningSnapshotCount(1)
                                .build(),
                        1);
        JobID job = running.client().getJobID();
        try {
            // the first round stops after the first snapshot: the position lags behind the head
            await(
                    "a positive enumeration lag",
                    () ->
                            !metrics(job, "enumerator.enumerationLagMs").isEmpty()
                                    && (Long) gauge(job, "enumerator.enumerationLagMs") > 0);
            List<RowData> rows =
                    SourceITCaseSupport.take(running.results(), 30, Duration.ofSeconds(60));
            // one snapshot per round, one reader: rows come snapshot by snapshot
            List<Long> ids = rows.stream().map(row -> row.getLong(0)).toList();
            assertThat(ids.subList(0, 10)).allMatch(id -> id < 10);
            assertThat(ids.subList(10, 20)).allMatch(id -> id >= 10 && id < 20);
            assertThat(ids.subList(20, 30)).allMatch(id -> id >= 20);
            await(
                    "the lag to drop to 0 once caught up",
                    () -> (Long) gauge(job, "enumerator.enumerationLagMs") == 0L);
            assertThat(sumCounters(job, "enumerator.assignedSplits")).isEqualTo(3);
        } finally {
            Jobs.cancelAndWait(running.client());
            running.results().close();
        }
    }

    @Test
    void splitLookbackDecidesHowFilesArePacked() throws Exception {
        // two big files, then two small ones, in one commit (planned in this order)
        DataFile big1 = SourceTestTables.writeFile(table, SourceTestTables.records(0, 400));
        DataFile big2 = SourceTestTables.writeFile(table, SourceTestTables.records(400, 800));
        DataFile small1 = SourceTestTables.writeFile(table, SourceTestTables.records(800, 802));
        DataFile small2 = SourceTestTables.writeFile(table, SourceTestTables.records(802, 804));
        table.newAppend()
                .appendFile(big1)
                .appendFile(big2)
                .appendFile(small1)
                .appendFile(small2)
                .commit();
        long target =
                Math.max(big1.fileSizeInBytes(), big2.fileSizeInBytes())
                        + Math.max(small1.fileSizeInBytes(), small2.fileSizeInBytes());
        assertThat(big1.fileSizeInBytes() + big2.fileSizeInBytes()).isGreaterThan(target);

        // lookback 1: [big1] [big2 small1] [small2]; lookback 2: [big1 small1] [big2 small2]
        assertThat(splitsRead(1, target)).isEqualTo(3);
        assertThat(splitsRead(2, target)).isEqualTo(2);
    }

    private long splitsRead(int lookback, long splitSize) throws Exception {
        Running<RowData> running =
                start(
                        IcebergSource.forRowData()
                                .tableLoader(loader)
                                .splitSize(splitSize)
                                .splitOpenFileCost(1L)
                                .splitLookback(lookback)
                                .build(),
                        1);
        List<RowData> rows = drain(running);
        assertThat(SourceTestTables.ids(rows)).isEqualTo(SourceTestTables.range(0, 804));
        return sumCounters(running.client().getJobID(), "enumerator.assignedSplits");
    }

    @Test
    void planParallelismPlansUnpagedScansOnItsOwnThreads() throws Exception {
        for (int i = 0; i < 6; i++) {
            SourceTestTables.append(table, i * 10L, i * 10L + 10); // 6 manifests
        }
        for (int pageSize : new int[] {-1, 2}) {
            List<RowData> rows =
                    drain(
                            start(
                                    IcebergSource.forRowData()
                                            .tableLoader(loader)
                                            .planParallelism(3)
                                            .splitPlanningPageSize(pageSize)
                                            .build(),
                                    2));
            assertThat(SourceTestTables.rowStrings(rows))
                    .isEqualTo(SourceTestTables.expectedStrings(0, 60));
        }
    }

    @Test
    void nameMappingReadsFilesWithoutFieldIds() throws Exception {
        // an Avro file written by another tool: the table's column names, no Iceberg field ids
        org.apache.avro.Schema avroSchema =
                new org.apache.avro.Schema.Parser()
                        .parse(
                                "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
                                        + "{\"name\":\"id\",\"type\":\"long\"},"
                                        + "{\"name\":\"data\",\"type\":[\"null\",\"string\"]},"
                                        + "{\"name\":\"ts\",\"type\":[\"null\",{\"type\":"
                                        + "\"long\",\"logicalType\":\"timestamp-micros\"}]}]}");
        File file = dir.resolve("imported.avro").toFile();
        try (DataFileWriter<GenericData.Record> writer =
                new DataFileWriter<>(new GenericDatumWriter<>(avroSchema))) {
            writer.create(avroSchema, file);
            for (long id = 0; id < 5; id++) {
                GenericData.Record record = new GenericData.Record(avroSchema);
                record.put("id", id);
                record.put("data", "row-" + id);
                record.put(
                        "ts",
                        ((java.time.LocalDateTime) SourceTestTables.record(id).getField("ts"))
                                        .toEpochSecond(ZoneOffset.UTC)
                                * 1_000_000L);
                writer.append(record);
            }
        }
        table.newAppend()
                .appendFile(
                        DataFiles.builder(table.spec())
                                .withPath(file.getAbsolutePath())
                                .withFormat(FileFormat.AVRO)
                                .withFileSizeInBytes(file.length())
                                .withRecordCount(5)
                                .build())
                .commit();
        List<RowData> rows =
                drain(
                        start(
                                IcebergSource.forRowData()
                                        .tableLoader(loader)
                                        .nameMapping(MappingUtil.create(table.schema()))
                                        .build(),
                                1));
        assertThat(SourceTestTables.rowStrings(rows))
                .isEqualTo(SourceTestTables.expectedStrings(0, 5));
    }

    @Test
    void deletionVectorsOfAV3TableAreApplied() throws Exception {
        String v3 = dir.resolve("v3").toString();
        Table table3 = SourceTestTables.create(v3, 3);
        DataFile file = SourceTestTables.writeFile(table3, SourceTestTables.records(0, 20));
        table3.newAppend().appendFile(file).commit();
        table3.newRowDelta()
                .addDeletes(SourceTestTables.writeDeletionVector(table3, file, 0, 5, 19))
                .commit();
        List<RowData> rows =
                drain(
                        start(
                                IcebergSource.forRowData()
                                        .tableLoader(TableLoader.fromHadoopTable(v3))
                                        .build(),
                                2));
        List<Long> expected = new ArrayList<>(SourceTestTables.range(0, 20));
        expected.removeAll(List.of(0L, 5L, 19L));
        assertThat(SourceTestTables.ids(rows)).isEqualTo(expected);
    }

    /** Records (id, the watermark current when the record arrived) in arrival order. */
    private static final class WatermarkAtArrival extends ProcessFunction<RowData, long[]> {
        @Override
        public void processElement(RowData row, Context ctx, Collector<long[]> out) {
            out.collect(new long[] {row.getLong(0), ctx.timerService().currentWatermark()});
        }
    }

    @Test
    void watermarkColumnOrdersSplitsAndEmitsTheirWatermarks() throws Exception {
        // committed newest first: ids 200-209, then 100-109, then 0-9 (ts = 2024-01-01 + id s)
        SourceTestTables.append(table, 200, 210);
        SourceTestTables.append(table, 100, 110);
        SourceTestTables.append(table, 0, 10);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .watermarkColumn("ts")
                        .splitOpenFileCost(128L * 1024 * 1024)
                        .build();
        StreamExecutionEnvironment env = env(1);
        DataStream<long[]> stream =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg",
                                source.getProducedType())
                        .process(new WatermarkAtArrival());
        List<long[]> seen = drain(start(env, stream));
        long epochMillis =
                ((java.time.LocalDateTime) SourceTestTables.record(0).getField("ts"))
                                .toEpochSecond(ZoneOffset.UTC)
                        * 1000;
        // splits in watermark order, whatever the commit order
        assertThat(seen.stream().map(s -> s[0]).toList())
                .isEqualTo(
                        concat(
                                SourceTestTables.range(0, 10),
                                SourceTestTables.range(100, 110),
                                SourceTestTables.range(200, 210)));
        Predicate<long[]> notLate = s -> s[1] < epochMillis + s[0] * 1000;
        assertThat(seen).allMatch(notLate);
        // each split's watermark (its lower bound - 1 ms) arrives before its records
        for (long[] s : seen) {
            long splitStart = s[0] - s[0] % 100;
            assertThat(s[1]).isGreaterThanOrEqualTo(epochMillis + splitStart * 1000 - 1);
        }
    }

    private static List<Long> concat(List<Long> a, List<Long> b, List<Long> c) {
        List<Long> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all;
    }
}
