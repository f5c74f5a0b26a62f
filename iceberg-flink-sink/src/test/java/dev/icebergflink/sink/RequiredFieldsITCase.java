package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.ExceptionUtils;
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
 * A DataStream job that hands {@link IcebergSink} a NULL in a required column (top level or nested
 * in a ROW), in append or upsert mode and in every file format, fails naming the column, and
 * commits nothing: the table keeps its snapshot and its rows. Flink's own NOT NULL enforcement
 * covers neither of these cases.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RequiredFieldsITCase extends SinkITCaseBase {

    /**
     * The test table's columns, all nullable on the Flink side, as a DataStream job may type them.
     */
    private static final RowType NULLABLE_FLAT =
            (RowType)
                    ROW(FIELD("id", BIGINT()), FIELD("data", STRING()), FIELD("part", STRING()))
                            .getLogicalType();

    private static final Schema NESTED =
            new Schema(
                    List.of(
                            Types.NestedField.required(1, "id", Types.LongType.get()),
                            Types.NestedField.optional(
                                    2,
                                    "point",
                                    Types.StructType.of(
                                            Types.NestedField.required(
                                                    3, "x", Types.IntegerType.get()),
                                            Types.NestedField.optional(
                                                    4, "label", Types.StringType.get())))),
                    java.util.Set.of(1));

    private static final RowType NULLABLE_NESTED =
            (RowType)
                    ROW(
                                    FIELD("id", BIGINT()),
                                    FIELD(
                                            "point",
                                            ROW(FIELD("x", INT()), FIELD("label", STRING()))))
                            .getLogicalType();

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void aNullTopLevelRequiredColumnFailsTheJobAndCommitsNothing(String format) throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        runJob(loader, NULLABLE_FLAT, List.of(row(1, "a", "p")), format, false);
        Snapshot before = SinkTestTables.load(loader).currentSnapshot();

        List<RowData> input = List.of(row(2, "b", "p"), row(3, "c", null), row(4, "d", "p"));
        assertThatThrownBy(() -> runJob(loader, NULLABLE_FLAT, input, format, false))
                .satisfies(e -> assertNamesRequiredColumn(e, "part"));

        assertThat(SinkTestTables.load(loader).currentSnapshot().snapshotId())
                .isEqualTo(before.snapshotId());
        assertThat(rows(loader)).containsExactly("1:a:p");
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void aNullInARequiredFieldOfARowFailsTheJobAndCommitsNothing(String format) throws Exception {
        TableLoader loader = nestedTable(format);
        runJob(loader, NULLABLE_NESTED, List.of(nested(1, 10, "a")), format, false);
        Snapshot before = SinkTestTables.load(loader).currentSnapshot();

        List<RowData> input = List.of(nested(2, 20, "b"), nested(3, null, "c"));
        assertThatThrownBy(() -> runJob(loader, NULLABLE_NESTED, input, format, false))
                .satisfies(e -> assertNamesRequiredColumn(e, "point.x"));

        assertThat(SinkTestTables.load(loader).currentSnapshot().snapshotId())
                .isEqualTo(before.snapshotId());
        assertThat(nestedRows(loader)).containsExactly("1|10|a");
    }

    @Test
    void upsertRejectsANullInARequiredFieldOfARow() throws Exception {
        TableLoader loader = nestedTable("parquet");
        runJob(loader, NULLABLE_NESTED, List.of(nested(1, 10, "a")), "parquet", true);
        Snapshot before = SinkTestTables.load(loader).currentSnapshot();

        RowData update = nested(1, null, "b");
        ((GenericRowData) update).setRowKind(RowKind.UPDATE_AFTER);
        assertThatThrownBy(
                        () ->
                                runJob(
                                        loader,
                                        NULLABLE_NESTED,
                                        List.of(nested(2, 20, "c"), update),
                                        "parquet",
                                        true))
                .satisfies(e -> assertNamesRequiredColumn(e, "point.x"));

        assertThat(SinkTestTables.load(loader).currentSnapshot().snapshotId())
                .isEqualTo(before.snapshotId());
        assertThat(nestedRows(loader)).containsExactly("1|10|a");
    }

    private TableLoader nestedTable(String format) {
        TableIdentifier id = TableIdentifier.of("db", "nested_" + format);
        tables.catalog()
                .createTable(
                        id,
                        NESTED,
                        PartitionSpec.unpartitioned(),
                        Map.of(TableProperties.FORMAT_VERSION, "2"));
        return tables.loader(id);
    }

    private static void runJob(
            TableLoader loader, RowType type, List<RowData> input, String format, boolean upsert)
            throws Exception {
        StreamExecutionEnvironment env = env();
        IcebergSink.Builder builder =
                IcebergSink.forRowData().tableLoader(loader).set("write-format", format);
        if (upsert) {
            builder = builder.upsert(true).equalityFieldColumns(List.of("id"));
        }
        env.fromData(input, InternalTypeInfo.of(type)).setParallelism(1).sinkTo(builder.build());
        env.execute("required fields " + format);
    }

    private static void assertNamesRequiredColumn(Throwable thrown, String path) {
        Optional<IllegalArgumentException> cause =
                ExceptionUtils.findThrowable(thrown, IllegalArgumentException.class);
        assertThat(cause).as("an IllegalArgumentException causing %s", thrown).isPresent();
        assertThat(cause.get())
                .hasMessageContaining("column '" + path + "'")
                .hasMessageContaining("required (NOT NULL)");
    }

    private static RowData nested(long id, Integer x, String label) {
        return GenericRowData.of(id, GenericRowData.of(x, StringData.fromString(label)));
    }

    private static List<String> nestedRows(TableLoader loader) throws Exception {
        Table table = SinkTestTables.load(loader);
        List<String> out = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                Record point = (Record) record.getField("point");
                out.add(
                        record.getField("id")
                                + "|"
                                + point.getField("x")
                                + "|"
                                + point.getField("label"));
            }
        }
        out.sort(null);
        return out;
    }
}
