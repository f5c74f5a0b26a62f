package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.SCHEMA;
import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MiniCluster tests of table shapes: a format-v3 table, a nested schema (struct, list, map) in
 * every file format, and upsert where the equality key is also the partition source.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IcebergSinkTableShapesITCase extends SinkITCaseBase {

    @Test
    void appendsAndUpsertsIntoAFormatV3Table() throws Exception {
        TableLoader loader = tables.create(SinkTestTables.BY_PART, 3);
        StreamExecutionEnvironment env = env();
        input(env, List.of(row(1, "a", "x"), row(2, "b", "y"), row(3, "c", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute("v3 append");
        assertThat(rows(loader)).containsExactly("1:a:x", "2:b:y", "3:c:x");

        StreamExecutionEnvironment env2 = env();
        input(
                        env2,
                        List.of(
                                row(RowKind.UPDATE_AFTER, 1, "a2", "x"),
                                row(RowKind.DELETE, 2, null, "y"),
                                row(4, "d", "y")))
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id", "part"))
                                .build());
        env2.execute("v3 upsert");
        assertThat(rows(loader)).containsExactly("1:a2:x", "3:c:x", "4:d:y");
        Table table = SinkTestTables.load(loader);
        assertThat(((HasTableOperations) table).operations().current().formatVersion())
                .isEqualTo(3);
        assertThat(table.currentSnapshot().operation()).isEqualTo("overwrite");
        assertThat(table.currentSnapshot().summary()).containsKey("flink.job-id");
    }

    private static final Schema NESTED =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(
                            2,
                            "point",
                            Types.StructType.of(
                                    Types.NestedField.required(3, "x", Types.IntegerType.get()),
                                    Types.NestedField.optional(
                                            4, "label", Types.StringType.get()))),
                    Types.NestedField.optional(
                            5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())),
                    Types.NestedField.optional(
                            7,
                            "scores",
                            Types.MapType.ofRequired(
                                    8, 9, Types.StringType.get(), Types.LongType.get())));

    private static RowData nestedRow(long id) {
        GenericRowData point =
                id % 4 == 0
                        ? null
                        : GenericRowData.of(
                                (int) id * 10,
                                id % 3 == 0 ? null : StringData.fromString("p" + id));
        Object[] tags = new Object[(int) (id % 3)];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = i == 1 ? null : StringData.fromString("t" + id + "-" + i);
        }
        Map<Object, Object> scores = new HashMap<>();
        for (int i = 0; i < id % 4; i++) {
            scores.put(StringData.fromString("k" + i), id * 100 + i);
        }
        return GenericRowData.of(
                id,
                point,
                id % 5 == 0 ? null : new GenericArrayData(tags),
                id % 7 == 0 ? null : new GenericMapData(scores));
    }

    /** What the generic reader must return for {@link #nestedRow}, rendered as a string. */
    private static String expectedNested(long id) {
        String point =
                id % 4 == 0 ? "null" : "{" + id * 10 + "," + (id % 3 == 0 ? null : "p" + id) + "}";
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < id % 3; i++) {
            tags.add(i == 1 ? null : "t" + id + "-" + i);
        }
        Map<String, Long> scores = new TreeMap<>();
        for (int i = 0; i < id % 4; i++) {
            scores.put("k" + i, id * 100 + i);
        }
        return id
                + "|"
                + point
                + "|"
                + (id % 5 == 0 ? "null" : tags)
                + "|"
                + (id % 7 == 0 ? "null" : scores);
    }

    private static String renderNested(Record record) {
        Record point = (Record) record.getField("point");
        @SuppressWarnings("unchecked")
        List<Object> tags = (List<Object>) record.getField("tags");
        @SuppressWarnings("unchecked")
        Map<Object, Object> scores = (Map<Object, Object>) record.getField("scores");
        return record.getField("id")
                + "|"
                + (point == null
                        ? "null"
                        : "{" + point.getField("x") + "," + point.getField("label") + "}")
                + "|"
                + (tags == null ? "null" : new ArrayList<>(tags))
                + "|"
                + (scores == null ? "null" : new TreeMap<>(sortedStringKeys(scores)));
    }

    private static Map<String, Object> sortedStringKeys(Map<Object, Object> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(k.toString(), v));
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void writesNestedStructsListsAndMaps(String format) throws Exception {
        TableIdentifier id = TableIdentifier.of("db", "nested_" + format);
        tables.catalog()
                .createTable(
                        id,
                        NESTED,
                        PartitionSpec.unpartitioned(),
                        Map.of(TableProperties.FORMAT_VERSION, "2"));
        TableLoader loader = tables.loader(id);
        int count = 60;
        List<RowData> input = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            input.add(nestedRow(i));
            expected.add(expectedNested(i));
        }
        StreamExecutionEnvironment env = env();
        env.fromData(input, InternalTypeInfo.of(FlinkSchemaUtil.convert(NESTED)))
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .set("write-format", format)
                                .build());
        env.execute("nested " + format);

        Table table = SinkTestTables.load(loader);
        List<String> actual = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            records.forEach(r -> actual.add(renderNested(r)));
        }
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                assertThat(task.file().format().name()).isEqualToIgnoringCase(format);
            }
        }
    }

    @Test
    void upsertWhereTheKeyIsThePartitionSource() throws Exception {
        // partitioned by bucket(id): the equality key is the partition source
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build();
        TableLoader loader = tables.create(spec, 2);
        int changes = 400;
        int keys = 20;
        // change i updates key i % 20 (several times per checkpoint and across checkpoints);
        // every 7th change of a key from change 300 on deletes it
        GeneratorFunction<Long, RowData> generator = i -> change(i, keys);
        StreamExecutionEnvironment env = env();
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                changes,
                                RateLimiterStrategy.perCheckpoint(100),
                                TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id"))
                                .build());
        env.execute("upsert by partition source");

        Map<Long, String> expected = new TreeMap<>();
        for (long i = 0; i < changes; i++) {
            RowData change = change(i, keys);
            if (change.getRowKind() == RowKind.DELETE) {
                expected.remove(change.getLong(0));
            } else {
                expected.put(
                        change.getLong(0),
                        change.getLong(0) + ":" + change.getString(1) + ":" + change.getString(2));
            }
        }
        List<String> want = new ArrayList<>(expected.values());
        want.sort(null);
        assertThat(rows(loader)).isEqualTo(want);
        assertThat(want).hasSizeLessThan(keys).hasSizeGreaterThan(keys / 2);

        // several commits, and every delete file sits in the partition of its key
        Table table = SinkTestTables.load(loader);
        List<Snapshot> snapshots = SinkTestTables.snapshots(loader);
        assertThat(snapshots).hasSizeGreaterThan(2);
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile data = task.file();
                for (DeleteFile delete : task.deletes()) {
                    assertThat(delete.partition().get(0, Integer.class))
                            .isEqualTo(data.partition().get(0, Integer.class));
                }
            }
        }
    }

    private static RowData change(long i, int keys) {
        long key = i % keys;
        long round = i / keys;
        if (i >= 300 && round % 7 == key % 7) {
            return row(RowKind.DELETE, key, null, "p");
        }
        return row(round % 2 == 0 ? RowKind.INSERT : RowKind.UPDATE_AFTER, key, "v" + i, "p");
    }
}
