package dev.icebergflink.source;

import static dev.icebergflink.source.SourceITCaseSupport.collect;
import static dev.icebergflink.source.SourceTestTables.append;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.OrderedSplitAssignerFactory;
import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounded reads through a MiniCluster: every builder option of a batch read, checked by content.
 */
class IcebergSourceBoundedITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    @TempDir Path dir;
    private Table table;
    private TableLoader loader;

    @BeforeEach
    void createTable() {
        String location = dir.resolve("t").toString();
        table = SourceTestTables.create(location, 2);
        loader = TableLoader.fromHadoopTable(location);
    }

    private IcebergSource.Builder<RowData> source() {
        return IcebergSource.forRowData()
                .tableLoader(loader)
                .assignerFactory(new SimpleSplitAssignerFactory());
    }

    @Test
    void readsTheCurrentSnapshotWithManySplits() throws Exception {
        SourceTestTables.appendFiles(table, 0, 300, 50);
        append(table, 300, 310);
        List<RowData> rows = collect(source().splitSize(1000L).splitOpenFileCost(1000L).build());
        assertThat(SourceTestTables.rowStrings(rows))
                .isEqualTo(SourceTestTables.expectedStrings(0, 310));
    }

    @Test
    void emptyTableEnds() throws Exception {
        assertThat(collect(source().build())).isEmpty();
    }

    @Test
    void timeTravelAndIncrementalRanges() throws Exception {
        Snapshot first = append(table, 0, 5);
        Snapshot second = append(table, 5, 12);
        Snapshot third = append(table, 12, 20);
        table.manageSnapshots().createTag("v1", first.snapshotId()).commit();
        table.manageSnapshots().createBranch("audit", second.snapshotId()).commit();
        SourceTestTables.appendToBranch(table, "audit", 100, 103);

        assertThat(SourceTestTables.ids(collect(source().snapshotId(second.snapshotId()).build())))
                .isEqualTo(SourceTestTables.range(0, 12));
        assertThat(SourceTestTables.ids(collect(source().tag("v1").build())))
                .isEqualTo(SourceTestTables.range(0, 5));
        List<Long> branch = new java.util.ArrayList<>(SourceTestTables.range(0, 12));
        branch.addAll(SourceTestTables.range(100, 103));
        assertThat(SourceTestTables.ids(collect(source().branch("audit").build())))
                .isEqualTo(branch);
        assertThat(
                        SourceTestTables.ids(
                                collect(source().asOfTimestamp(first.timestampMillis()).build())))
                .startsWith(0L, 1L, 2L, 3L, 4L);
        assertThat(
                        SourceTestTables.ids(
                                collect(
                                        source().startSnapshotId(first.snapshotId())
                                                .endSnapshotId(second.snapshotId())
                                                .build())))
                .isEqualTo(SourceTestTables.range(5, 12));
        assertThat(
                        SourceTestTables.ids(
                                collect(source().startSnapshotId(second.snapshotId()).build())))
                .isEqualTo(SourceTestTables.range(12, 20));
        assertThat(third.parentId()).isEqualTo(second.snapshotId());
    }

    @Test
    void projectionFiltersAndCaseInsensitiveNames() throws Exception {
        append(table, 0, 50);
        append(table, 50, 100);
        List<RowData> rows =
                collect(
                        source().project(
                                        new org.apache.iceberg.Schema(
                                                Types.NestedField.optional(
                                                        2, "DATA", Types.StringType.get()),
                                                Types.NestedField.required(
                                                        1, "ID", Types.LongType.get())))
                                .filters(
                                        List.of(
                                                Expressions.and(
                                                        Expressions.greaterThanOrEqual("id", 40L),
                                                        Expressions.lessThan("id", 60L))))
                                .build());
        assertThat(rows).hasSize(20);
        assertThat(rows.get(0).getArity()).isEqualTo(2);
        assertThat(rows.stream().map(r -> r.getString(0) + "/" + r.getLong(1)).sorted().toList())
                .isEqualTo(
                        SourceTestTables.range(40, 60).stream()
                                .map(id -> "row-" + id + "/" + id)
                                .sorted()
                                .toList());
    }

    @Test
    void filterOnAColumnOutsideTheProjection() throws Exception {
        append(table, 0, 30);
        List<RowData> rows =
                collect(
                        source().project(table.schema().select("data"))
                                .filters(List.of(Expressions.lessThan("id", 3L)))
                                .build());
        assertThat(rows.stream().map(r -> r.getString(0).toString()).sorted().toList())
                .containsExactly("row-0", "row-1", "row-2");
    }

    @Test
    void orderedAssignerAndOtherOutputTypes() throws Exception {
        append(table, 0, 10);
        append(table, 10, 20);
        List<RowData> rows =
                collect(
                        IcebergSource.forRowData()
                                .tableLoader(loader)
                                .assignerFactory(new OrderedSplitAssignerFactory())
                                .splitOpenFileCost(128L * 1024 * 1024)
                                .build());
        assertThat(SourceTestTables.ids(rows)).isEqualTo(SourceTestTables.range(0, 20));

        List<Row> asRows = collect(IcebergSource.forRow().tableLoader(loader).build());
        assertThat(asRows.stream().map(r -> (Long) r.getField(0)).sorted().toList())
                .isEqualTo(SourceTestTables.range(0, 20));
        assertThat(asRows.get(0).getField(1).toString()).startsWith("row-");

        List<GenericRecord> avro =
                collect(IcebergSource.forGenericRecord().tableLoader(loader).build());
        assertThat(avro.stream().map(r -> (Long) r.get("id")).sorted().toList())
                .isEqualTo(SourceTestTables.range(0, 20));
    }

    @Test
    void setAndSetAllAcceptOptionKeys() throws Exception {
        Snapshot first = append(table, 0, 5);
        append(table, 5, 9);
        List<RowData> rows =
                collect(
                        source().setAll(Map.of("snapshot-id", "" + first.snapshotId()))
                                .set("split-size", "1024")
                                .build());
        assertThat(SourceTestTables.ids(rows)).isEqualTo(SourceTestTables.range(0, 5));
    }

    @Test
    void unknownColumnsOfAFormatV3TableReadNull() throws Exception {
        org.apache.iceberg.Schema schema =
                new org.apache.iceberg.Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "later", Types.UnknownType.get()),
                        Types.NestedField.optional(3, "data", Types.StringType.get()));
        String location = dir.resolve("unknown").toString();
        Table v3 =
                new org.apache.iceberg.hadoop.HadoopTables(
                                new org.apache.hadoop.conf.Configuration())
                        .create(
                                schema,
                                org.apache.iceberg.PartitionSpec.unpartitioned(),
                                Map.of("format-version", "3"),
                                location);
        List<org.apache.iceberg.data.Record> records = new java.util.ArrayList<>();
        for (long id = 0; id < 3; id++) {
            org.apache.iceberg.data.Record record =
                    org.apache.iceberg.data.GenericRecord.create(schema);
            record.setField("id", id);
            record.setField("data", "d" + id);
            records.add(record);
        }
        v3.newAppend().appendFile(SourceTestTables.writeFile(v3, records)).commit();

        List<RowData> rows =
                collect(
                        IcebergSource.forRowData()
                                .tableLoader(TableLoader.fromHadoopTable(location))
                                .build());
        assertThat(rows)
                .extracting(row -> row.getLong(0) + ":" + row.isNullAt(1) + ":" + row.getString(2))
                .containsExactlyInAnyOrder("0:true:d0", "1:true:d1", "2:true:d2");
    }

    @Test
    void flinkSourceFacade() throws Exception {
        Snapshot first = append(table, 0, 5);
        append(table, 5, 9);
        StreamExecutionEnvironment env = SourceITCaseSupport.env();
        DataStream<RowData> stream =
                FlinkSource.forRowData()
                        .env(env)
                        .tableLoader(loader)
                        .streaming(false)
                        .startSnapshotId(first.snapshotId())
                        .build();
        List<RowData> rows = new java.util.ArrayList<>();
        try (CloseableIterator<RowData> it = stream.executeAndCollect()) {
            it.forEachRemaining(rows::add);
        }
        assertThat(SourceTestTables.ids(rows)).isEqualTo(SourceTestTables.range(5, 9));
    }

    @Test
    void contradictionsFailInBuild() {
        Snapshot first = append(table, 0, 5);
        assertThatThrownBy(
                        () ->
                                source().snapshotId(first.snapshotId())
                                        .asOfTimestamp(first.timestampMillis())
                                        .build())
                .hasMessageContaining("'snapshot-id'")
                .hasMessageContaining("'as-of-timestamp'");
        assertThatThrownBy(
                        () ->
                                source().streaming(true)
                                        .streamingStartingStrategy(
                                                StreamingStartingStrategy
                                                        .INCREMENTAL_FROM_SNAPSHOT_ID)
                                        .build())
                .hasMessageContaining("INCREMENTAL_FROM_SNAPSHOT_ID")
                .hasMessageContaining("'start-snapshot-id'");
        assertThatThrownBy(() -> source().watermarkColumn("data").build())
                .hasMessageContaining("'watermark-column'")
                .hasMessageContaining("string");
        assertThatThrownBy(
                        () ->
                                IcebergSource.forRowData()
                                        .tableLoader(loader)
                                        .watermarkColumn("ts")
                                        .assignerFactory(new SimpleSplitAssignerFactory())
                                        .build())
                .hasMessageContaining("'watermark-column'");
        assertThatThrownBy(
                        () ->
                                source().project(
                                                new org.apache.iceberg.Schema(
                                                        Types.NestedField.optional(
                                                                9,
                                                                "missing",
                                                                Types.StringType.get())))
                                        .build())
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> source().streaming(true).snapshotId(first.snapshotId()).build())
                .hasMessageContaining("snapshot-id")
                .hasMessageContaining("streaming");
        assertThatThrownBy(() -> source().set("split-sise", "1").build())
                .hasMessageContaining("'split-sise'")
                .hasMessageContaining("split-size");
        assertThatThrownBy(() -> source().tag("nope").build()).hasMessageContaining("'nope'");
        assertThatThrownBy(() -> source().set("max-planning-snapshot-count", "0").build())
                .hasMessageContaining("max-planning-snapshot-count");
    }
}
