package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.sink.committer.CommitSummaryKeys;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ExceptionUtils;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types.DecimalType;
import org.apache.iceberg.types.Types.DoubleType;
import org.apache.iceberg.types.Types.FloatType;
import org.apache.iceberg.types.Types.IntegerType;
import org.apache.iceberg.types.Types.LongType;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.iceberg.types.Types.StringType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic sink on a MiniCluster against a real Hadoop catalog: one job that routes records to
 * four tables while their schemas, specs and branches change mid-stream, with and without a failure
 * in the middle, checked row by row against what Iceberg's generic reader returns.
 */
class DynamicIcebergSinkITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final Namespace DB = Namespace.of("db");
    private static final TableIdentifier EVOLVING = TableIdentifier.of(DB, "evolving");
    private static final TableIdentifier CREATED = TableIdentifier.of(DB, "created");
    private static final TableIdentifier UPSERTED = TableIdentifier.of(DB, "upserted");
    private static final TableIdentifier BRANCHED = TableIdentifier.of(DB, "branched");
    private static final TableIdentifier WIDENING = TableIdentifier.of(DB, "widening");

    /** Input records; the schemas and specs change at half of them. */
    private static final int RECORDS = 240;

    private static final int CHANGE_AT = RECORDS / 2;
    private static final int KEYS = 10;
    private static final int ORDERED_CHANGES = 1500;

    private static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir Path warehouse;

    private HadoopCatalog catalog;
    private CatalogLoader catalogLoader;

    @BeforeEach
    void createCatalog() {
        Map<String, String> properties = Map.of("warehouse", warehouse.toUri().toString());
        catalogLoader =
                CatalogLoader.hadoop(
                        "dynamic", new org.apache.hadoop.conf.Configuration(), properties);
        catalog = (HadoopCatalog) catalogLoader.loadCatalog();
        catalog.createTable(EVOLVING, Mixed.V1);
        FAILED.set(false);
    }

    @Test
    void routesToManyTablesWhileSchemasSpecsAndBranchesChange() throws Exception {
        run(false);
        assertTables();
    }

    @Test
    void aFailureMidStreamLosesNothingAndWritesNothingTwice() throws Exception {
        run(true);
        assertThat(FAILED).isTrue();
        assertTables();
    }

    @Test
    void anIncompatibleSchemaFailsTheJobNamingTableColumnAndTypes() {
        TableIdentifier strict = TableIdentifier.of(DB, "strict");
        catalog.createTable(
                strict,
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.optional(2, "name", IntegerType.get())));
        StreamExecutionEnvironment env = environment(false);
        DynamicIcebergSink.forInput(source(env, 3))
                .generator(new StringNames(strict))
                .catalogLoader(catalogLoader)
                .append();
        assertThatThrownBy(() -> env.execute("incompatible"))
                .satisfies(
                        failure ->
                                assertThat(
                                                ExceptionUtils.findThrowable(
                                                        failure, IncompatibleSchemaException.class))
                                        .hasValueSatisfying(
                                                e ->
                                                        assertThat(e.getMessage())
                                                                .contains(
                                                                        "db.strict",
                                                                        "column 'name'",
                                                                        "int",
                                                                        "string")));
        assertThat(catalog.loadTable(strict).currentSnapshot()).isNull();
    }

    @Test
    void widensTypesMakesColumnsOptionalDropsColumnsAndConvertsNarrowerInput() throws Exception {
        catalog.createTable(WIDENING, Widening.V1);
        TableIdentifier strict = TableIdentifier.of(DB, "strict");
        catalog.createTable(
                strict,
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.optional(2, "name", IntegerType.get())));
        StreamExecutionEnvironment env = environment(false);
        DynamicIcebergSink.Builder<Long> builder =
                DynamicIcebergSink.forInput(source(env, 3 * Widening.STEP))
                        .generator(new Widening(strict))
                        .catalogLoader(catalogLoader)
                        .dropUnusedColumns(true)
                        .incompatibleRecordsToSideOutput(true);
        builder.append();
        List<IncompatibleRecord> incompatible = new ArrayList<>();
        try (CloseableIterator<IncompatibleRecord> records =
                builder.incompatibleRecords().executeAndCollect()) {
            records.forEachRemaining(incompatible::add);
        }

        Table table = catalog.loadTable(WIDENING);
        assertThat(table.schema().findField("price").type()).isEqualTo(DoubleType.get());
        assertThat(table.schema().findField("price").isOptional()).isTrue();
        assertThat(table.schema().findField("amount").type()).isEqualTo(DecimalType.of(12, 2));
        assertThat(table.schema().findField("note")).isNull();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3 * Widening.STEP; i++) {
            expected.add(i + ":" + (i * 1.5d) + ":" + i + ".25");
        }
        assertThat(rows(table, null, "id", "price", "amount"))
                .containsExactlyInAnyOrderElementsOf(expected);

        // every third record also went to the strict table, whose name column is an int
        assertThat(incompatible).hasSize(Widening.STEP);
        assertThat(incompatible)
                .allSatisfy(
                        record -> {
                            assertThat(record.table).isEqualTo("db.strict");
                            assertThat(record.reason).contains("column 'name'");
                            assertThat(record.schema).contains("\"name\"");
                        });
        assertThat(incompatible.stream().map(r -> r.row).toList()).contains("+I(0,n0)", "+I(3,n3)");
        assertThat(catalog.loadTable(strict).currentSnapshot()).isNull();
    }

    @Test
    void theChangesOfOneKeyKeepTheirOrderWhileTheirTableIsCreated() throws Exception {
        // records take the way through the table changes until the table exists, then (after
        // the generator's cache saw it) the way straight to the writers: the last change must
        // still win
        TableIdentifier ordered = TableIdentifier.of(DB, "ordered");
        StreamExecutionEnvironment env = environment(false);
        DataStream<Long> input =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> i,
                                        ORDERED_CHANGES,
                                        RateLimiterStrategy.perSecond(1000),
                                        Types.LONG),
                                WatermarkStrategy.noWatermarks(),
                                "changes of one key")
                        .setParallelism(1);
        DynamicIcebergSink.forInput(input)
                .generator(new OneKey(ordered))
                .catalogLoader(catalogLoader)
                .tableCreator(
                        (catalog, id, schema, spec) ->
                                catalog.createTable(
                                        id, schema, spec, Map.of("format-version", "2")))
                .append();
        env.execute("one key");
        assertThat(rows(catalog.loadTable(ordered), null, "id", "value"))
                .containsExactly("1:" + (ORDERED_CHANGES - 1));
    }

    @Test
    void aKeyChangedBeforeAndAfterASchemaChangeInOneCommitKeepsOnlyItsLastRow() throws Exception {
        // no checkpoints: the whole input is one commit, in which the table gets a column while
        // key 1 changes before and after: the files written after the change are committed after
        // the earlier ones, so their deletes replace the earlier rows of the key
        TableIdentifier evolved = TableIdentifier.of(DB, "evolved_keyed");
        catalog.createTable(
                evolved, Mixed.KEYED, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        DataStream<Long> input = env.fromSequence(0, 19);
        DynamicIcebergSink.forInput(input)
                .generator(new OneKeyGainingAColumn(evolved))
                .catalogLoader(catalogLoader)
                .append();
        env.execute("one key across a schema change");

        Table table = catalog.loadTable(evolved);
        assertThat(table.schema().findField("note")).isNotNull();
        assertThat(rows(table, null, "id", "value", "note")).containsExactly("1:19:n19");
        assertThat(table.currentSnapshot().summary())
                .as("the later generation commits under an owner of its own")
                .containsKey("flink.operator-id");
        assertThat(
                        java.util.stream.StreamSupport.stream(
                                        table.snapshots().spliterator(), false)
                                .map(snapshot -> snapshot.summary().get("flink.operator-id"))
                                .filter(java.util.Objects::nonNull)
                                .filter(operator -> operator.endsWith(".g1")))
                .hasSize(1);
    }

    private void run(boolean failOnce) throws Exception {
        StreamExecutionEnvironment env = environment(failOnce);
        DataStream<Long> input = source(env, RECORDS);
        if (failOnce) {
            input = input.map(new FailOnce()).setParallelism(1);
        }
        DynamicIcebergSink.forInput(input)
                .generator(new Mixed())
                .catalogLoader(catalogLoader)
                .tableCreator(
                        (catalog, id, schema, spec) ->
                                catalog.createTable(
                                        id, schema, spec, Map.of("format-version", "2")))
                .writeParallelism(2)
                .cacheRefreshMs(200)
                .uidPrefix("dynamic")
                .append();
        env.execute("dynamic sink");
    }

    private static StreamExecutionEnvironment environment(boolean restarts) {
        Configuration conf = new Configuration();
        if (restarts) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofMillis(100));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(100);
        return env;
    }

    /** 0..count-1, about 40 per checkpoint, from one subtask. */
    private static DataStream<Long> source(StreamExecutionEnvironment env, int count) {
        return env.fromSource(
                        new DataGeneratorSource<>(
                                i -> i, count, RateLimiterStrategy.perCheckpoint(40), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbers")
                .setParallelism(1);
    }

    private void assertTables() throws IOException {
        Table evolving = catalog.loadTable(EVOLVING);
        assertThat(evolving.schema().findField("id").type()).isEqualTo(LongType.get());
        assertThat(evolving.schema().findField("extra")).isNotNull();
        List<String> expectedEvolving = new ArrayList<>();
        for (int i = 0; i < RECORDS; i += 4) {
            expectedEvolving.add(i + ":a" + i + ":" + (i < CHANGE_AT ? "null" : "x" + i));
        }
        assertThat(rows(evolving, null, "id", "name", "extra"))
                .containsExactlyInAnyOrderElementsOf(expectedEvolving);
        assertOneSnapshotPerCheckpoint(evolving, null);

        Table created = catalog.loadTable(CREATED);
        assertThat(created.specs()).hasSize(2);
        assertThat(created.spec().fields()).hasSize(1);
        assertThat(created.spec().fields().get(0).transform().toString()).isEqualTo("bucket[4]");
        Set<Integer> fileSpecs = new java.util.HashSet<>();
        try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
                created.newScan().planFiles()) {
            tasks.forEach(task -> fileSpecs.add(task.file().specId()));
        }
        assertThat(fileSpecs).hasSize(2);
        List<String> expectedCreated = new ArrayList<>();
        for (int i = 1; i < RECORDS; i += 4) {
            expectedCreated.add(i + ":c" + (i % 3));
        }
        assertThat(rows(created, null, "id", "category"))
                .containsExactlyInAnyOrderElementsOf(expectedCreated);
        assertOneSnapshotPerCheckpoint(created, null);

        Table upserted = catalog.loadTable(UPSERTED);
        Map<Integer, Integer> latest = new TreeMap<>();
        for (int i = 2; i < RECORDS; i += 4) {
            latest.put((i / 4) % KEYS, i);
        }
        assertThat(rows(upserted, null, "id", "value"))
                .containsExactlyInAnyOrderElementsOf(
                        latest.entrySet().stream()
                                .map(e -> e.getKey() + ":" + e.getValue())
                                .toList());
        assertOneSnapshotPerCheckpoint(upserted, null);

        Table branched = catalog.loadTable(BRANCHED);
        assertThat(branched.currentSnapshot()).isNull();
        List<String> expectedBranched = new ArrayList<>();
        for (int i = 3; i < RECORDS; i += 4) {
            expectedBranched.add(i + ":d" + i);
        }
        assertThat(rows(branched, "staging", "id", "name"))
                .containsExactlyInAnyOrderElementsOf(expectedBranched);
        assertOneSnapshotPerCheckpoint(branched, "staging");
    }

    /** Each snapshot of the branch records a later checkpoint than the one before it. */
    private static void assertOneSnapshotPerCheckpoint(Table table, String branch) {
        Snapshot head = branch == null ? table.currentSnapshot() : table.snapshot(branch);
        List<Long> checkpoints = new ArrayList<>();
        for (Snapshot s = head;
                s != null;
                s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
            // the end of input's commit records the last regular checkpoint as committed and
            // its own id as the end of input
            String checkpoint =
                    s.summary()
                            .getOrDefault(
                                    CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID,
                                    s.summary().get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID));
            if (checkpoint != null) {
                checkpoints.add(0, Long.parseLong(checkpoint));
                assertThat(s.summary()).containsKey(CommitSummaryKeys.JOB_ID);
            }
        }
        assertThat(checkpoints).isNotEmpty().isSorted().doesNotHaveDuplicates();
    }

    private static List<String> rows(Table table, String branch, String... columns)
            throws IOException {
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (branch != null) {
            scan = scan.useSnapshot(table.snapshot(branch).snapshotId());
        }
        try (CloseableIterable<Record> records = scan.build()) {
            return StreamSupport.stream(records.spliterator(), false)
                    .map(
                            r ->
                                    java.util.Arrays.stream(columns)
                                            .map(c -> String.valueOf(r.getField(c)))
                                            .collect(Collectors.joining(":")))
                    .toList();
        }
    }

    /** Fails the job once, after some checkpoints were committed. */
    private static final class FailOnce implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            if (value == CHANGE_AT + 30 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure at record " + value);
            }
            return value;
        }
    }

    /**
     * Record i goes to one of four tables by {@code i % 4}: an existing table whose id widens from
     * int to long and which gains a column at {@link #CHANGE_AT}; a table created on the fly whose
     * spec changes from identity(category) to bucket(4, id); an upsert table of {@link #KEYS} keys;
     * a table written only on branch {@code staging}.
     */
    private static final class Mixed implements DynamicRecordGenerator<Long> {
        static final Schema V1 =
                new Schema(
                        NestedField.required(1, "id", IntegerType.get()),
                        NestedField.optional(2, "name", StringType.get()));
        static final Schema V2 =
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.optional(2, "name", StringType.get()),
                        NestedField.optional(3, "extra", StringType.get()));
        static final Schema CATEGORIES =
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.optional(2, "category", StringType.get()));
        static final Schema KEYED =
                new Schema(
                        NestedField.required(1, "id", IntegerType.get()),
                        NestedField.optional(2, "value", IntegerType.get()));
        static final Schema NAMES =
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.optional(2, "name", StringType.get()));

        @Override
        public void generate(Long value, Collector<DynamicRecord> out) {
            int i = value.intValue();
            boolean changed = i >= CHANGE_AT;
            switch (i % 4) {
                case 0 ->
                        out.collect(
                                changed
                                        ? record(
                                                EVOLVING,
                                                V2,
                                                GenericRowData.of(value, s("a" + i), s("x" + i)))
                                        : record(EVOLVING, V1, GenericRowData.of(i, s("a" + i))));
                case 1 -> {
                    PartitionSpec spec =
                            changed
                                    ? PartitionSpec.builderFor(CATEGORIES).bucket("id", 4).build()
                                    : PartitionSpec.builderFor(CATEGORIES)
                                            .identity("category")
                                            .build();
                    out.collect(
                            new DynamicRecord(
                                    CREATED,
                                    null,
                                    CATEGORIES,
                                    GenericRowData.of(value, s("c" + (i % 3))),
                                    spec,
                                    org.apache.iceberg.DistributionMode.HASH,
                                    2));
                }
                case 2 -> {
                    DynamicRecord upsert =
                            record(UPSERTED, KEYED, GenericRowData.of((i / 4) % KEYS, i));
                    upsert.setUpsertMode(true);
                    upsert.setEqualityFields(Set.of("id"));
                    out.collect(upsert);
                }
                default -> {
                    DynamicRecord branched =
                            record(BRANCHED, NAMES, GenericRowData.of(value, s("d" + i)));
                    branched.setBranch("staging");
                    out.collect(branched);
                }
            }
        }

        private static DynamicRecord record(
                TableIdentifier table, Schema schema, GenericRowData row) {
            return new DynamicRecord(table, null, schema, row, PartitionSpec.unpartitioned());
        }
    }

    /**
     * Records of {@link #WIDENING}: the table's own schema first, then a schema with wider and
     * optional types and without the note column, then the first schema without the note again
     * (narrower than the table by then); the changes fall on checkpoint boundaries (the source
     * emits {@link #STEP} records per checkpoint). Every third record also goes to a table it does
     * not fit.
     */
    private static final class Widening implements DynamicRecordGenerator<Long> {
        static final int STEP = 40;
        static final Schema V1 =
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.required(2, "price", FloatType.get()),
                        NestedField.required(3, "amount", DecimalType.of(10, 2)),
                        NestedField.optional(4, "note", StringType.get()));
        static final Schema WIDER =
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.optional(2, "price", DoubleType.get()),
                        NestedField.optional(3, "amount", DecimalType.of(12, 2)));
        static final Schema NARROW =
                new Schema(
                        NestedField.required(1, "id", LongType.get()),
                        NestedField.required(2, "price", FloatType.get()),
                        NestedField.required(3, "amount", DecimalType.of(10, 2)));

        private final String strict;

        Widening(TableIdentifier strict) {
            this.strict = strict.toString();
        }

        @Override
        public void generate(Long value, Collector<DynamicRecord> out) {
            int i = value.intValue();
            DecimalData amount = DecimalData.fromBigDecimal(new BigDecimal(i + ".25"), 10, 2);
            DynamicRecord record;
            if (i < STEP) {
                record = record(V1, GenericRowData.of(value, i * 1.5f, amount, s("n" + i)));
            } else if (i < 2 * STEP) {
                DecimalData wide = DecimalData.fromBigDecimal(new BigDecimal(i + ".25"), 12, 2);
                record = record(WIDER, GenericRowData.of(value, i * 1.5d, wide));
            } else {
                record = record(NARROW, GenericRowData.of(value, i * 1.5f, amount));
            }
            out.collect(record);
            if (i % 3 == 0) {
                out.collect(
                        new DynamicRecord(
                                TableIdentifier.parse(strict),
                                null,
                                Mixed.NAMES,
                                GenericRowData.of(value, s("n" + value)),
                                PartitionSpec.unpartitioned()));
            }
        }

        private static DynamicRecord record(Schema schema, GenericRowData row) {
            return new DynamicRecord(WIDENING, null, schema, row, PartitionSpec.unpartitioned());
        }
    }

    /** Upserts of key 1 whose value is the input number: the last one must win. */
    private static final class OneKey implements DynamicRecordGenerator<Long> {
        private final String table;

        OneKey(TableIdentifier table) {
            this.table = table.toString();
        }

        @Override
        public void generate(Long value, Collector<DynamicRecord> out) {
            DynamicRecord record =
                    new DynamicRecord(
                            TableIdentifier.parse(table),
                            null,
                            Mixed.KEYED,
                            GenericRowData.of(1, value.intValue()),
                            PartitionSpec.unpartitioned());
            record.setUpsertMode(true);
            record.setEqualityFields(Set.of("id"));
            out.collect(record);
        }
    }

    /**
     * Upserts of key 1 whose value is the input number; from 10 on the records carry a new column
     * {@code note}, which the sink adds to the table.
     */
    private static final class OneKeyGainingAColumn implements DynamicRecordGenerator<Long> {
        private static final Schema WITH_NOTE =
                new Schema(
                        NestedField.required(1, "id", IntegerType.get()),
                        NestedField.optional(2, "value", IntegerType.get()),
                        NestedField.optional(3, "note", StringType.get()));

        private final String table;

        OneKeyGainingAColumn(TableIdentifier table) {
            this.table = table.toString();
        }

        @Override
        public void generate(Long value, Collector<DynamicRecord> out) {
            int v = value.intValue();
            DynamicRecord record =
                    v < 10
                            ? new DynamicRecord(
                                    TableIdentifier.parse(table),
                                    null,
                                    Mixed.KEYED,
                                    GenericRowData.of(1, v),
                                    PartitionSpec.unpartitioned())
                            : new DynamicRecord(
                                    TableIdentifier.parse(table),
                                    null,
                                    WITH_NOTE,
                                    GenericRowData.of(1, v, s("n" + v)),
                                    PartitionSpec.unpartitioned());
            record.setUpsertMode(true);
            record.setEqualityFields(Set.of("id"));
            out.collect(record);
        }
    }

    /** Records whose name is a string, for a table where it is an int. */
    private static final class StringNames implements DynamicRecordGenerator<Long> {
        private final String table;

        StringNames(TableIdentifier table) {
            this.table = table.toString();
        }

        @Override
        public void generate(Long value, Collector<DynamicRecord> out) {
            out.collect(
                    new DynamicRecord(
                            TableIdentifier.parse(table),
                            null,
                            Mixed.NAMES,
                            GenericRowData.of(value, s("n" + value)),
                            PartitionSpec.unpartitioned()));
        }
    }

    private static StringData s(String value) {
        return StringData.fromString(value);
    }
}
