package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.BY_PART;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static dev.icebergflink.sink.SinkTestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every write option has an observable effect, through the FlinkSink facade. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FlinkSinkOptionsITCase extends SinkITCaseBase {

    private static Map<String, Integer> filesPerPartition(TableLoader loader, Snapshot snapshot) {
        Map<String, Integer> counts = new HashMap<>();
        for (DataFile file : addedFiles(loader, snapshot)) {
            counts.merge(file.partition().get(0, String.class), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void hashDistributionWritesOneFilePerPartitionPerCheckpoint() throws Exception {
        TableLoader hashed = tables.create(BY_PART, 2);
        TableLoader spread = tables.create(BY_PART, 2);
        for (TableLoader loader : List.of(hashed, spread)) {
            StreamExecutionEnvironment env = env();
            FlinkSink.forRowData(generated(env, 400, 100, 2).rebalance())
                    .tableLoader(loader)
                    .distributionMode(
                            loader == hashed ? DistributionMode.HASH : DistributionMode.NONE)
                    .writeParallelism(2)
                    .append();
            env.execute();
            assertThat(rows(loader)).isEqualTo(expected(400, 2));
        }
        for (Snapshot snapshot : snapshots(hashed)) {
            assertThat(filesPerPartition(hashed, snapshot).values()).allMatch(n -> n == 1);
        }
        // without a shuffle both writers see both partitions
        assertThat(
                        snapshots(spread).stream()
                                .flatMap(s -> filesPerPartition(spread, s).values().stream())
                                .anyMatch(n -> n == 2))
                .isTrue();
    }

    @Test
    void formatTargetSizeAndCompressionShapeTheFiles() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env();
        FlinkSink.forRowData(generated(env, 3000, 3000, 1))
                .tableLoader(loader)
                .writeParallelism(1)
                .setAll(
                        Map.of(
                                "write-format", "parquet",
                                "compression-codec", "gzip",
                                "target-file-size-bytes", "1"))
                .append();
        env.execute();
        assertThat(rows(loader)).hasSize(3000);
        List<DataFile> files = new ArrayList<>();
        for (Snapshot snapshot : snapshots(loader)) {
            files.addAll(addedFiles(loader, snapshot));
        }
        // a 1-byte target rolls at every size check (each 1000 rows)
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);
        for (DataFile file : files) {
            try (ParquetFileReader reader =
                    ParquetFileReader.open(
                            HadoopInputFile.fromPath(
                                    new org.apache.hadoop.fs.Path(file.location()),
                                    new Configuration()))) {
                assertThat(reader.getFooter().getBlocks().get(0).getColumns().get(0).getCodec())
                        .isEqualTo(CompressionCodecName.GZIP);
            }
        }
    }

    @Test
    void branchSnapshotPropertiesAndWriteParallelism() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        StreamExecutionEnvironment env = env();
        FlinkSink.forRowData(generated(env, 200, 200, 1))
                .tableLoader(loader)
                .toBranch("audit")
                .setSnapshotProperty("app", "sink-test")
                .setSnapshotProperties(Map.of("owner", "team-a"))
                .writeParallelism(1)
                .append();
        env.execute();
        Table table = SinkTestTables.load(loader);
        assertThat(table.currentSnapshot()).as("main has no commit").isNull();
        assertThat(rows(loader, "audit")).isEqualTo(expected(200, 1));
        List<DataFile> files = new ArrayList<>();
        for (Snapshot snapshot : snapshots(loader)) {
            assertThat(snapshot.summary())
                    .containsEntry("app", "sink-test")
                    .containsEntry("owner", "team-a");
            files.addAll(addedFiles(loader, snapshot));
        }
        // one writer subtask: every file name starts with subtask 00000
        assertThat(files)
                .allSatisfy(
                        file ->
                                assertThat(Path.of(file.location()).getFileName().toString())
                                        .startsWith("00000-"));
    }

    @Test
    void uidSuffixAndWriteParallelismShapeTheJobGraph() {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = env();
        FlinkSink.forRowData(input(env, List.of(row(1, "a", "x"))))
                .tableLoader(loader)
                .uidSuffix("orders")
                .upsert(true)
                .equalityFieldColumns(List.of("id", "part"))
                .writeParallelism(3)
                .append();
        StreamGraph graph = env.getStreamGraph();
        List<String> uids =
                graph.getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .filter(uid -> uid != null)
                        .collect(Collectors.toList());
        assertThat(uids)
                .contains(
                        "iceberg-writer-orders",
                        "Sink Committer: iceberg-writer-orders",
                        "iceberg-writer-orders: iceberg-dedup-orders",
                        "iceberg-writer-orders: iceberg-aggregator-orders");
        Map<String, Integer> parallelism = new HashMap<>();
        for (StreamNode node : graph.getStreamNodes()) {
            if (node.getTransformationUID() != null) {
                parallelism.put(node.getTransformationUID(), node.getParallelism());
            }
        }
        assertThat(parallelism)
                .containsEntry("iceberg-writer-orders", 3)
                .containsEntry("iceberg-writer-orders: iceberg-dedup-orders", 3)
                .containsEntry("iceberg-writer-orders: iceberg-aggregator-orders", 1);
        JobGraph jobGraph = graph.getJobGraph();
        assertThat(jobGraph.getVertices()).extracting(JobVertex::getParallelism).contains(3);
    }

    @Test
    void writesRowsThroughForRow() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        ResolvedSchema schema =
                ResolvedSchema.of(
                        Column.physical("id", DataTypes.BIGINT().notNull()),
                        Column.physical("data", DataTypes.VARCHAR(20)),
                        Column.physical("part", DataTypes.STRING().notNull()));
        StreamExecutionEnvironment env = env();
        List<Row> input =
                List.of(
                        Row.ofKind(RowKind.INSERT, 1L, "a", "x"),
                        Row.ofKind(RowKind.INSERT, 2L, "b", "y"),
                        Row.ofKind(RowKind.DELETE, 1L, "a", "x"));
        FlinkSink.forRow(
                        env.fromData(
                                        input,
                                        Types.ROW_NAMED(
                                                new String[] {"id", "data", "part"},
                                                Types.LONG,
                                                Types.STRING,
                                                Types.STRING))
                                .setParallelism(1),
                        schema)
                .tableLoader(loader)
                .append();
        env.execute();
        assertThat(rows(loader)).containsExactly("2:b:y");
    }

    @Test
    void writesAnyInputTypeThroughBuilderForWithAPreloadedTable() throws Exception {
        TableLoader loader = tables.create(BY_PART, 2);
        Table table = SinkTestTables.load(loader);
        StreamExecutionEnvironment env = env();
        // the documented shape: a stream of the user's type, a MapFunction to RowData
        FlinkSink.builderFor(
                        env.fromData("1,a,x", "2,b,y", "3,c,x").setParallelism(1),
                        (String line) -> {
                            String[] fields = line.split(",");
                            return row(Long.parseLong(fields[0]), fields[1], fields[2]);
                        },
                        InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema())))
                .table(table)
                .tableLoader(loader)
                .set(FlinkWriteOptions.OVERWRITE_MODE, "false")
                .append();
        env.execute();
        assertThat(rows(loader)).containsExactlyInAnyOrder("1:a:x", "2:b:y", "3:c:x");
    }
}
