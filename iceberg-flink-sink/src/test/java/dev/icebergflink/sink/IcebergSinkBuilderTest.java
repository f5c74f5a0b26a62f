package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.BY_PART;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.CommitMode;
import dev.icebergflink.sink.writer.WriterMode;
import dev.icebergflink.testing.NotLoadingTableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergSinkBuilderTest {

    @TempDir Path warehouse;
    private SinkTestTables tables;

    @BeforeEach
    void setUp() {
        tables = new SinkTestTables(warehouse);
    }

    private static ResolvedSchema schema(Column... columns) {
        return ResolvedSchema.of(columns);
    }

    @Test
    void requiresATable() {
        assertThatThrownBy(() -> IcebergSink.forRowData().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tableLoader");
    }

    @Test
    void choosesWriterAndCommitModes() {
        TableLoader v1 = tables.create(PartitionSpec.unpartitioned(), 1);
        TableLoader v2 = tables.create(BY_PART, 2);
        IcebergSink append = IcebergSink.forRowData().tableLoader(v1).build();
        assertThat(append.writerMode()).isEqualTo(WriterMode.APPEND);
        assertThat(append.committerSettings().mode()).isEqualTo(CommitMode.APPEND);

        IcebergSink changelog = IcebergSink.forRowData().tableLoader(v2).build();
        assertThat(changelog.writerMode()).isEqualTo(WriterMode.CHANGELOG);
        assertThat(changelog.committerSettings().mode()).isEqualTo(CommitMode.ROW_DELTA);

        IcebergSink upsert =
                IcebergSink.forRowData()
                        .tableLoader(v2)
                        .upsert(true)
                        .equalityFieldColumns(List.of("id", "part"))
                        .build();
        assertThat(upsert.writerMode()).isEqualTo(WriterMode.UPSERT);

        IcebergSink overwrite = IcebergSink.forRowData().tableLoader(v2).overwrite(true).build();
        assertThat(overwrite.writerMode()).isEqualTo(WriterMode.APPEND);
        assertThat(overwrite.committerSettings().mode()).isEqualTo(CommitMode.DYNAMIC_OVERWRITE);

        IcebergSink staticOverwrite =
                IcebergSink.forRowData()
                        .tableLoader(v2)
                        .overwritePartition(Map.of("part", "x"))
                        .toBranch("b")
                        .setSnapshotProperty("k", "v")
                        .uidSuffix("mine")
                        .build();
        assertThat(staticOverwrite.committerSettings().mode())
                .isEqualTo(CommitMode.STATIC_OVERWRITE);
        assertThat(staticOverwrite.committerSettings().staticOverwriteFilter().toString())
                .contains("part")
                .contains("x");
        assertThat(staticOverwrite.committerSettings().branch()).isEqualTo("b");
        assertThat(staticOverwrite.committerSettings().snapshotProperties())
                .containsEntry("k", "v");
        assertThat(staticOverwrite.writerUid()).isEqualTo("iceberg-writer-mine");
        assertThat(staticOverwrite.operatorUids()).isTrue();
    }

    @Test
    void insertOnlyTakesThePlainAppendPathEvenWithIdentifierFields() {
        // the tests' schema has identifier field 'id'
        TableLoader v2 = tables.create(BY_PART, 2);
        IcebergSink insertOnly = IcebergSink.forRowData().tableLoader(v2).insertOnly(true).build();
        assertThat(insertOnly.writerMode()).isEqualTo(WriterMode.INSERT_ONLY);
        assertThat(insertOnly.committerSettings().mode()).isEqualTo(CommitMode.APPEND);
        assertThat(operatorNames(insertOnly)).noneMatch(name -> name.contains("iceberg-dedup"));

        // the safe default: a changelog keyed by the identifier fields and de-duplicated
        IcebergSink changelog = IcebergSink.forRowData().tableLoader(v2).build();
        assertThat(changelog.writerMode()).isEqualTo(WriterMode.CHANGELOG);
        assertThat(operatorNames(changelog)).anyMatch(name -> name.contains("iceberg-dedup"));

        IcebergSink overwrite =
                IcebergSink.forRowData().tableLoader(v2).insertOnly(true).overwrite(true).build();
        assertThat(overwrite.writerMode()).isEqualTo(WriterMode.INSERT_ONLY);
        assertThat(overwrite.committerSettings().mode()).isEqualTo(CommitMode.DYNAMIC_OVERWRITE);

        TableLoader v1 = tables.create(PartitionSpec.unpartitioned(), 1);
        assertThat(IcebergSink.forRowData().tableLoader(v1).insertOnly(true).build().writerMode())
                .isEqualTo(WriterMode.INSERT_ONLY);
    }

    @Test
    void rejectsInsertOnlyWithUpsert() {
        TableLoader v2 = tables.create(PartitionSpec.unpartitioned(), 2);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(v2)
                                        .insertOnly(true)
                                        .upsert(true)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("insertOnly(true)")
                .hasMessageContaining("upsert-enabled");
    }

    @Test
    void upsertWithUniqueKeysSkipsTheDeduplicationAndNeedsUpsert() {
        TableLoader v2 = tables.create(PartitionSpec.unpartitioned(), 2);
        IcebergSink unique =
                IcebergSink.forRowData()
                        .tableLoader(v2)
                        .upsert(true)
                        .upsertUniqueKeys(true)
                        .build();
        assertThat(unique.writerMode()).isEqualTo(WriterMode.UPSERT);
        assertThat(unique.committerSettings().mode()).isEqualTo(CommitMode.ROW_DELTA);
        assertThat(operatorNames(unique)).noneMatch(name -> name.contains("iceberg-dedup"));

        IcebergSink keyed = IcebergSink.forRowData().tableLoader(v2).upsert(true).build();
        assertThat(operatorNames(keyed)).anyMatch(name -> name.contains("iceberg-dedup"));

        // the SQL hint / option form
        IcebergSink byOption =
                IcebergSink.forRowData()
                        .tableLoader(v2)
                        .set("upsert-enabled", "true")
                        .set("upsert-unique-keys", "true")
                        .build();
        assertThat(operatorNames(byOption)).noneMatch(name -> name.contains("iceberg-dedup"));

        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(v2)
                                        .upsertUniqueKeys(true)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'upsert-unique-keys'")
                .hasMessageContaining("upsert-enabled");
    }

    /** The names of the operators a job with {@code sink} has (its pre-write topology included). */
    private static List<String> operatorNames(IcebergSink sink) {
        return operatorNames(streamGraph(sink, RuntimeExecutionMode.STREAMING));
    }

    private static List<String> operatorNames(StreamGraph graph) {
        List<String> names = new ArrayList<>();
        graph.getStreamNodes().forEach(node -> names.add(node.getOperatorName()));
        return names;
    }

    private static StreamGraph streamGraph(IcebergSink sink, RuntimeExecutionMode mode) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(mode);
        env.fromData(List.of(SinkTestTables.row(1, "a", "x")), SinkTestTables.TYPE_INFO)
                .sinkTo(sink);
        return env.getStreamGraph();
    }

    /** The partitioners of the edges into the sink's writer. */
    private static List<String> writerInputPartitioners(StreamGraph graph) {
        return graph.getStreamNodes().stream()
                .filter(node -> node.getOperatorName().contains("Writer"))
                .flatMap(node -> node.getInEdges().stream())
                .map(edge -> edge.getPartitioner().getClass().getSimpleName())
                .toList();
    }

    @Test
    void batchUpsertsTrackKeysInTheWritersInsteadOfAKeyedDeduplication() {
        TableLoader v2 = tables.create(PartitionSpec.unpartitioned(), 2);
        IcebergSink upsert = IcebergSink.forRowData().tableLoader(v2).upsert(true).build();
        StreamGraph batch = streamGraph(upsert, RuntimeExecutionMode.BATCH);
        assertThat(operatorNames(batch))
                .noneMatch(name -> name.contains("iceberg-dedup"))
                .noneMatch(name -> name.contains("iceberg-input-order"));
        // rows reach the writer of their key by a custom partitioning, not a keyed exchange
        assertThat(writerInputPartitioners(batch)).containsExactly("CustomPartitionerWrapper");

        // AUTOMATIC execution may run streaming: it keeps the keyed de-duplication
        StreamGraph automatic =
                streamGraph(
                        IcebergSink.forRowData().tableLoader(v2).upsert(true).build(),
                        RuntimeExecutionMode.AUTOMATIC);
        assertThat(operatorNames(automatic))
                .anyMatch(name -> name.contains("iceberg-dedup"))
                .anyMatch(name -> name.contains("iceberg-input-order"));

        // range distribution would separate the changes of a key: keyed de-duplication first
        TableLoader sorted = tables.create(BY_PART, 2);
        StreamGraph range =
                streamGraph(
                        IcebergSink.forRowData()
                                .tableLoader(sorted)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id", "part"))
                                .distributionMode(DistributionMode.RANGE)
                                .build(),
                        RuntimeExecutionMode.BATCH);
        assertThat(operatorNames(range)).anyMatch(name -> name.contains("iceberg-dedup"));
    }

    @Test
    void rejectsOverwriteWithUpsert() {
        TableLoader v2 = tables.create(PartitionSpec.unpartitioned(), 2);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(v2)
                                        .overwrite(true)
                                        .upsert(true)
                                        .build())
                .hasMessageContaining("overwrite-enabled")
                .hasMessageContaining("upsert-enabled");
    }

    @Test
    void rejectsUpsertWithoutEqualityFieldsOrOnV1OrWithPartitionOutsideTheKey() {
        TableLoader v1 = tables.create(PartitionSpec.unpartitioned(), 1);
        assertThatThrownBy(() -> IcebergSink.forRowData().tableLoader(v1).upsert(true).build())
                .hasMessageContaining("upsert-enabled")
                .hasMessageContaining("format v1");

        // the test schema's identifier field is id; a partition by part is outside the key
        TableLoader partitioned = tables.create(BY_PART, 2);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(partitioned)
                                        .upsert(true)
                                        .build())
                .hasMessageContaining("partition field 'part'")
                .hasMessageContaining("'part'");

        TableLoader v2 = tables.create(PartitionSpec.unpartitioned(), 2);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(v2)
                                        .upsert(true)
                                        .equalityFieldColumns(List.of("nope"))
                                        .build())
                .hasMessageContaining("'nope'")
                .hasMessageContaining("[id, data, part]");
        // identifier fields serve as equality fields
        assertThat(IcebergSink.forRowData().tableLoader(v2).upsert(true).build().writerMode())
                .isEqualTo(WriterMode.UPSERT);
    }

    @Test
    void rejectsUpsertWithoutAnyEqualityField() {
        TableLoader loader =
                tables.create(
                        PartitionSpec.unpartitioned(), 2, Map.of("write.upsert.enabled", "true"));
        // drop the identifier field
        SinkTestTables.load(loader).updateSchema().setIdentifierFields(List.of()).commit();
        assertThatThrownBy(() -> IcebergSink.forRowData().tableLoader(loader).build())
                .hasMessageContaining("needs equality fields");
    }

    @Test
    void rejectsInputSchemasThatDoNotFit() {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        Column id = Column.physical("id", DataTypes.BIGINT().notNull());
        Column data = Column.physical("data", DataTypes.STRING());
        Column part = Column.physical("part", DataTypes.STRING().notNull());

        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .tableSchema(schema(id, data))
                                        .build())
                .hasMessageContaining("table column 'part' is missing");
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .tableSchema(
                                                schema(
                                                        Column.physical(
                                                                "id", DataTypes.STRING().notNull()),
                                                        data,
                                                        part))
                                        .build())
                .hasMessageContaining("id");
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .tableSchema(
                                                schema(
                                                        Column.physical("id", DataTypes.BIGINT()),
                                                        data,
                                                        part))
                                        .build())
                .hasMessageContaining("id")
                .hasMessageContaining("optional");
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .tableSchema(
                                                schema(
                                                        id,
                                                        data,
                                                        part,
                                                        Column.physical("extra", DataTypes.INT())))
                                        .build())
                .hasMessageContaining("'extra' is not a column");

        // INT into a long column: the writers need BIGINT
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .tableSchema(
                                                schema(
                                                        Column.physical(
                                                                "id", DataTypes.INT().notNull()),
                                                        data,
                                                        part))
                                        .build())
                .hasMessageContaining("column 'id'")
                .hasMessageContaining("BIGINT");

        // other Flink types that fit are accepted
        IcebergSink fits =
                IcebergSink.forRowData()
                        .tableLoader(loader)
                        .tableSchema(
                                schema(id, Column.physical("data", DataTypes.VARCHAR(10)), part))
                        .build();
        assertThat(fits).isNotNull();
    }

    @Test
    void rejectsUnknownOptionsRangeAndBadStaticPartitions() {
        TableLoader loader = tables.create(BY_PART, 2);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .set("write-fromat", "orc")
                                        .build())
                .hasMessageContaining("'write-fromat'")
                .hasMessageContaining("did you mean 'write-format'");
        TableLoader plain = tables.create(PartitionSpec.unpartitioned(), 2);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(plain)
                                        .distributionMode(DistributionMode.RANGE)
                                        .build())
                .hasMessageContaining("distribution-mode 'range'")
                .hasMessageContaining("sort order or a partition spec");
        assertThat(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .distributionMode(DistributionMode.RANGE)
                                .set("range-distribution-statistics-type", "sketch")
                                .set("range-distribution-sort-key-base-weight", "0.01")
                                .build()
                                .writeConf())
                .satisfies(
                        conf -> {
                            assertThat(conf.rangeStatisticsType()).isEqualTo("Sketch");
                            assertThat(conf.rangeSortKeyBaseWeight()).isEqualTo(0.01);
                        });
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .set("range-distribution-statistics-type", "histogram")
                                        .build())
                .hasMessageContaining("range-distribution-statistics-type")
                .hasMessageContaining("Map, Sketch, Auto");
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .set("range-distribution-sort-key-base-weight", "-1")
                                        .build())
                .hasMessageContaining("range-distribution-sort-key-base-weight");
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .overwritePartition(Map.of("data", "x"))
                                        .build())
                .hasMessageContaining("'data'")
                .hasMessageContaining("[part]");
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .set("write-format", "csv")
                                        .build())
                .hasMessageContaining("write-format");
    }

    @Test
    void aStagedSinkRecordsInsteadOfCommittingOnMainOnly() {
        TableLoader v2 = tables.create(BY_PART, 2);
        String staging = warehouse.resolve("staging").toUri().toString();
        SinkPlan plan = IcebergSink.forRowData().tableLoader(v2).insertOnly(true).resolve();
        IcebergSink staged = SinkAssembly.assembleStaged(v2, plan, staging);
        assertThat(staged.committerSettings().mode()).isEqualTo(CommitMode.STAGE);
        assertThat(staged.committerSettings().stagingLocation()).isEqualTo(staging);
        assertThat(SinkAssembly.assemble(v2, plan).committerSettings().stagingLocation()).isNull();

        SinkPlan onBranch =
                IcebergSink.forRowData()
                        .tableLoader(v2)
                        .insertOnly(true)
                        .toBranch("audit")
                        .resolve();
        assertThatThrownBy(() -> SinkAssembly.assembleStaged(v2, onBranch, staging))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'branch'='audit'");
        assertThatThrownBy(
                        () ->
                                dev.icebergflink.sink.committer.CommitterSettings.builder(v2)
                                        .stageTo(" ")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("STAGE needs");
    }

    @Test
    void resolveReturnsThePlanTheSinkIsBuiltFrom() {
        TableLoader v2 = tables.create(BY_PART, 2);
        SinkPlan plan =
                IcebergSink.forRowData()
                        .tableLoader(v2)
                        .upsert(true)
                        .equalityFieldColumns(List.of("id", "part"))
                        .set("write-format", "avro")
                        .resolve();
        assertThat(plan.modes().writer()).isEqualTo(WriterMode.UPSERT);
        assertThat(plan.modes().commit()).isEqualTo(CommitMode.ROW_DELTA);
        assertThat(plan.equalityFieldIds()).hasSize(2);
        assertThat(plan.writeConf().format()).isEqualTo(org.apache.iceberg.FileFormat.AVRO);
        assertThat(plan.uidSuffix()).isEqualTo(plan.table().name());
        assertThat(plan.operatorUids()).isFalse();
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(v2)
                                        .overwrite(true)
                                        .upsert(true)
                                        .resolve())
                .isInstanceOf(WriteRuleViolation.class)
                .hasMessageContaining("overwrite-enabled");
    }

    @Test
    void operatorUidsMakeACopyAndLeaveTheBuiltSinkAsItIs() {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        IcebergSink built = IcebergSink.forRowData().tableLoader(loader).build();
        IcebergSink withUids = built.withOperatorUids();
        assertThat(withUids).isNotSameAs(built);
        assertThat(withUids.operatorUids()).isTrue();
        assertThat(built.operatorUids()).isFalse();
        assertThat(withUids.writerUid()).isEqualTo(built.writerUid());
        assertThat(withUids.withOperatorUids()).isSameAs(withUids);
    }

    @Test
    void icebergNamesAreAliasesOfTheBuilderVerbs() {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        IcebergSink named =
                IcebergSink.forRowData()
                        .tableLoader(loader)
                        .branch("b")
                        .snapshotProperty("k", "v")
                        .snapshotProperties(Map.of("k2", "v2"))
                        .build();
        IcebergSink aliased =
                IcebergSink.forRowData()
                        .tableLoader(loader)
                        .toBranch("b")
                        .setSnapshotProperty("k", "v")
                        .setSnapshotProperties(Map.of("k2", "v2"))
                        .build();
        assertThat(named.committerSettings().branch()).isEqualTo("b");
        assertThat(aliased.committerSettings().branch()).isEqualTo("b");
        assertThat(named.committerSettings().snapshotProperties())
                .isEqualTo(aliased.committerSettings().snapshotProperties())
                .containsEntry("k", "v")
                .containsEntry("k2", "v2");
        assertThatThrownBy(() -> IcebergSink.forRowData().distributionMode(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NONE, HASH, RANGE");
        assertThatThrownBy(() -> IcebergSink.forRowData().set((String) null, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option key");
    }

    @Test
    void aPreloadedTablePlansTheSinkWithoutLoadingItAndIsNotPartOfIt() throws Exception {
        Table table = SinkTestTables.load(tables.create(BY_PART, 2));

        IcebergSink sink =
                IcebergSink.forRowData()
                        .tableLoader(new NotLoadingTableLoader())
                        .table(table)
                        .set(FlinkWriteOptions.OVERWRITE_MODE, "true")
                        .build();

        assertThat(sink.committerSettings().mode()).isEqualTo(CommitMode.DYNAMIC_OVERWRITE);
        // the built sink serializes: the writers hold a serializable copy of the given table
        IcebergSink copy =
                InstantiationUtil.deserializeObject(
                        InstantiationUtil.serializeObject(sink), getClass().getClassLoader());
        assertThat(copy.committerSettings().mode()).isEqualTo(CommitMode.DYNAMIC_OVERWRITE);

        // the loader stays required: the committer loads the table through it
        assertThatThrownBy(() -> IcebergSink.forRowData().table(table).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "needs tableLoader(TableLoader) also with table(" + table.name() + ")")
                .hasMessageContaining("the committer loads the table through it");
    }

    @Test
    void overwriteModeIsTheOverwriteEnabledOptionUnderIcebergsJavaName() {
        assertThat(FlinkWriteOptions.OVERWRITE_MODE).isSameAs(FlinkWriteOptions.OVERWRITE_ENABLED);
        assertThat(FlinkWriteOptions.OVERWRITE_MODE.key()).isEqualTo("overwrite-enabled");
        TableLoader loader = tables.create(BY_PART, 2);
        assertThat(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .set(FlinkWriteOptions.OVERWRITE_MODE, "false")
                                .build()
                                .committerSettings()
                                .mode())
                .isEqualTo(CommitMode.ROW_DELTA);
        assertThatThrownBy(
                        () ->
                                IcebergSink.forRowData()
                                        .tableLoader(loader)
                                        .set(FlinkWriteOptions.OVERWRITE_MODE, "yes")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overwrite-enabled");
    }

    @Test
    void builderForMapsAnyInputTypeToRowDataInFrontOfTheSink() {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        Table table = SinkTestTables.load(loader);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        FlinkSink.builderFor(
                        env.fromData("1,a,x", "2,b,y").setParallelism(1),
                        (String line) -> SinkTestTables.row(1L, line, "x"),
                        InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema())))
                .table(table)
                .tableLoader(loader)
                .append();
        StreamGraph graph = env.getStreamGraph();
        assertThat(graph.getStreamNodes())
                .filteredOn(node -> node.getOperatorName().equals("To RowData"))
                .singleElement()
                .satisfies(node -> assertThat(node.getParallelism()).isEqualTo(1));

        assertThatThrownBy(
                        () ->
                                FlinkSink.builderFor(
                                        env.fromData("x"),
                                        null,
                                        InternalTypeInfo.of(
                                                FlinkSchemaUtil.convert(table.schema()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no mapper");
        // a declared row type that does not fit the table is named
        assertThatThrownBy(
                        () ->
                                FlinkSink.builderFor(
                                                env.fromData("x"),
                                                (String line) -> SinkTestTables.row(1L, line, "x"),
                                                InternalTypeInfo.of(
                                                        RowType.of(
                                                                new LogicalType[] {
                                                                    new IntType(), new IntType()
                                                                },
                                                                new String[] {"id", "data"})))
                                        .tableLoader(loader)
                                        .append())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("data");
    }
}
