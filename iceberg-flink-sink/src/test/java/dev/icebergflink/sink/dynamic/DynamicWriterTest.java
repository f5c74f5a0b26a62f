package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.writer.TestingSinkWriterMetricGroup;
import dev.icebergflink.sink.writer.WriterMetrics;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The multi-table writer against a real Hadoop catalog, without a cluster. */
class DynamicWriterTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);
    private static final List<TableIdentifier> TABLES =
            List.of(
                    TableIdentifier.of("db", "t0"),
                    TableIdentifier.of("db", "t1"),
                    TableIdentifier.of("db", "t2"));

    @TempDir Path warehouse;

    private CatalogLoader catalogLoader;

    @BeforeEach
    void createTables() {
        catalogLoader =
                CatalogLoader.hadoop(
                        "w",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()));
        Catalog catalog = catalogLoader.loadCatalog();
        TABLES.forEach(id -> catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned()));
    }

    @Test
    void opensAtMostMaxOpenWritersAndHandsOnTheClosedOnesFilesWithTheCheckpoint() throws Exception {
        TestingSinkWriterMetricGroup metrics = new TestingSinkWriterMetricGroup();
        DynamicWriter writer =
                new DynamicWriter(
                        settings(2), new WriterMetrics(metrics), 0, 0, configured -> null);
        // t0, t1, t2 (closes t0), t0 (closes t1), t1 (closes t2): 3 + 2 files
        int[] order = {0, 1, 2, 0, 1};
        for (int i = 0; i < order.length; i++) {
            writer.write(record(TABLES.get(order[i]), i), null);
        }
        List<DynamicWriteResult> results = List.copyOf(writer.prepareCommit());

        assertThat(results)
                .extracting(DynamicWriteResult::table)
                .containsExactlyInAnyOrderElementsOf(TABLES);
        Map<TableIdentifier, List<Long>> counts =
                results.stream()
                        .collect(
                                Collectors.toMap(
                                        DynamicWriteResult::table,
                                        r ->
                                                Arrays.stream(r.result().dataFiles())
                                                        .map(DataFile::recordCount)
                                                        .sorted()
                                                        .toList()));
        assertThat(counts.get(TABLES.get(0))).containsExactly(1L, 1L);
        assertThat(counts.get(TABLES.get(1))).containsExactly(1L, 1L);
        assertThat(counts.get(TABLES.get(2))).containsExactly(1L);
        assertThat(results).allSatisfy(r -> assertThat(r.branch()).isEqualTo("main"));
        assertThat(metrics.counters.get("numRecordsSend").getCount()).isEqualTo(5);

        // the next checkpoint starts with no open writer
        assertThat(writer.prepareCommit()).isEmpty();
        writer.close();
    }

    @Test
    void writersByKeyStayOpenUntilTheCheckpointWhateverTheBound() throws Exception {
        Catalog catalog = catalogLoader.loadCatalog();
        TableIdentifier keyed = TableIdentifier.of("db", "keyed");
        catalog.createTable(
                keyed, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
        DynamicWriter writer = writer(1);
        ResolvedRecord first = upsert(keyed, 1, "first");
        writer.write(first, null);
        writer.write(record(TABLES.get(0), 2), null);
        writer.write(record(TABLES.get(1), 3), null);
        writer.write(upsert(keyed, 1, "second"), null);
        Map<TableIdentifier, DynamicWriteResult> results =
                writer.prepareCommit().stream()
                        .collect(Collectors.toMap(DynamicWriteResult::table, r -> r));
        // one writer wrote both changes of key 1: the first row is deleted by position
        assertThat(results.get(keyed).result().dataFiles()).hasSize(1);
        assertThat(results.get(keyed).result().dataFiles()[0].recordCount()).isEqualTo(2);
        assertThat(
                        Arrays.stream(results.get(keyed).result().deleteFiles())
                                .map(f -> f.content().name())
                                .toList())
                .contains("POSITION_DELETES");
        writer.close();
    }

    @Test
    void aSchemaChangeOfATableWrittenByKeyStartsANewGeneration() throws Exception {
        Catalog catalog = catalogLoader.loadCatalog();
        TableIdentifier keyed = TableIdentifier.of("db", "keyed");
        catalog.createTable(
                keyed, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
        DynamicWriter writer = writer(10);
        writer.write(upsert(keyed, 1, "before"), null);
        writer.write(record(TABLES.get(0), 2), null);
        catalog.loadTable(keyed)
                .updateSchema()
                .addColumn("extra", Types.IntegerType.get())
                .commit();
        Schema evolved = catalog.loadTable(keyed).schema();
        writer.write(
                new ResolvedRecord(
                        keyed,
                        "main",
                        evolved.schemaId(),
                        0,
                        GenericRowData.of(1L, StringData.fromString("after"), 7),
                        true,
                        new int[] {1},
                        1,
                        0,
                        FlinkSchemaUtil.convert(evolved)),
                null);
        List<DynamicWriteResult> results = List.copyOf(writer.prepareCommit());

        assertThat(results)
                .extracting(DynamicWriteResult::table, DynamicWriteResult::generation)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(keyed, 0),
                        org.assertj.core.groups.Tuple.tuple(keyed, 1),
                        org.assertj.core.groups.Tuple.tuple(TABLES.get(0), 0));
        DynamicWriteResult later =
                results.stream()
                        .filter(r -> r.table().equals(keyed) && r.generation() == 1)
                        .findFirst()
                        .orElseThrow();
        assertThat(
                        Arrays.stream(later.result().deleteFiles())
                                .map(f -> f.content().name())
                                .toList())
                .as("the later generation deletes the key's earlier row by equality")
                .contains("EQUALITY_DELETES");

        // the next checkpoint starts at generation 0 again
        writer.write(upsert(keyed, 2, "next"), null);
        assertThat(writer.prepareCommit())
                .extracting(DynamicWriteResult::generation)
                .containsExactly(0);
        writer.close();
    }

    private static ResolvedRecord upsert(TableIdentifier table, long id, String data) {
        return new ResolvedRecord(
                table,
                "main",
                SCHEMA.schemaId(),
                0,
                GenericRowData.of(id, StringData.fromString(data)),
                true,
                new int[] {1},
                1,
                0,
                ROW_TYPE);
    }

    @Test
    void aRecordOfASchemaTheWriterDoesNotKnowMakesItLoadTheTableAgain() throws Exception {
        DynamicWriter writer = writer(10);
        writer.write(record(TABLES.get(0), 1), null);
        // another operator adds a column; its records name the new schema
        Catalog catalog = catalogLoader.loadCatalog();
        catalog.loadTable(TABLES.get(0))
                .updateSchema()
                .addColumn("extra", Types.IntegerType.get())
                .commit();
        Schema evolved = catalog.loadTable(TABLES.get(0)).schema();
        writer.write(
                new ResolvedRecord(
                        TABLES.get(0),
                        "main",
                        evolved.schemaId(),
                        0,
                        GenericRowData.of(2L, StringData.fromString("v2"), 7),
                        false,
                        new int[0],
                        1,
                        0,
                        FlinkSchemaUtil.convert(evolved)),
                null);
        List<DynamicWriteResult> results = List.copyOf(writer.prepareCommit());
        DataFile[] files = results.get(0).result().dataFiles();
        assertThat(files).hasSize(2);
        int extra = evolved.findField("extra").fieldId();
        assertThat(Arrays.stream(files).filter(f -> f.valueCounts().containsKey(extra)))
                .as("the row of the new schema is written with it")
                .hasSize(1);
        writer.close();
    }

    private static ResolvedRecord record(TableIdentifier table, long id) {
        return new ResolvedRecord(
                table,
                "main",
                SCHEMA.schemaId(),
                0,
                GenericRowData.of(id, StringData.fromString("v" + id)),
                false,
                new int[0],
                1,
                0,
                ROW_TYPE);
    }

    /** A writer of subtask 0 with at most {@code maxOpenWriters} open append writers. */
    private DynamicWriter writer(int maxOpenWriters) {
        return new DynamicWriter(
                settings(maxOpenWriters),
                new WriterMetrics(new TestingSinkWriterMetricGroup()),
                0,
                0,
                configured -> null);
    }

    private DynamicSinkSettings settings(int maxOpenWriters) {
        return DynamicIcebergSink.forInput(
                        StreamExecutionEnvironment.getExecutionEnvironment().fromData(1L))
                .generator((value, out) -> {})
                .catalogLoader(catalogLoader)
                .maxOpenWriters(maxOpenWriters)
                .settings();
    }
}
