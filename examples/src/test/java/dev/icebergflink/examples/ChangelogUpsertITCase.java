package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChangelogUpsertITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    @TempDir Path warehouse;

    @ParameterizedTest(name = "upsert={0}")
    @ValueSource(booleans = {false, true})
    void theTableHoldsTheLastImageOfEveryKeyAndNoDeletedKey(boolean upsert) throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();

        List<RowData> read =
                ChangelogUpsert.run(
                        ExampleTesting.args(
                                ExampleTesting.catalogArgs(warehouse),
                                "--upsert",
                                String.valueOf(upsert)),
                        output.stream);

        // The expected table: the changelog replayed into a map by key.
        Map<Long, List<Object>> expected = new TreeMap<>();
        List<RowData> changelog = new ArrayList<>(ChangelogUpsert.INITIAL_LOAD);
        changelog.addAll(ChangelogUpsert.CHANGES);
        for (RowData change : changelog) {
            if (change.getRowKind() == RowKind.INSERT
                    || change.getRowKind() == RowKind.UPDATE_AFTER) {
                expected.put(change.getLong(0), values(change));
            } else if (change.getRowKind() == RowKind.DELETE) {
                expected.remove(change.getLong(0));
            }
        }
        assertThat(expected).doesNotContainKey(3L).containsKeys(1L, 2L, 4L, 5L);
        assertThat(expected.get(1L)).isEqualTo(List.of(1L, "Alice", "Madrid", 12));

        // What the example read back through the connector...
        assertThat(read.stream().map(ChangelogUpsertITCase::values).toList())
                .isEqualTo(new ArrayList<>(expected.values()));
        // ...and what Iceberg's own reader sees.
        Table table = ExampleTesting.loadTable(warehouse, "examples.customers");
        assertThat(TableUtil.formatVersion(table)).isEqualTo(2);
        assertThat(table.schema().identifierFieldNames()).containsExactly("id");
        Map<Long, Record> byId = ExampleTesting.recordsById(table);
        assertThat(byId).containsOnlyKeys(expected.keySet());
        expected.forEach(
                (id, values) ->
                        assertThat(
                                        List.of(
                                                byId.get(id).getField("id"),
                                                byId.get(id).getField("name"),
                                                byId.get(id).getField("city"),
                                                byId.get(id).getField("points")))
                                .isEqualTo(values));
        assertThat(table.currentSnapshot().summary()).containsKey("added-equality-delete-files");

        assertThat(output.text())
                .contains("  -U[2, Bob, Paris, 20]")
                .contains("|  1 | Alice | Madrid |     12 |")
                .contains("4 rows");
    }

    @Test
    void refusesATableThatHoldsRows() throws Exception {
        String[] args = ExampleTesting.args(ExampleTesting.catalogArgs(warehouse));
        ChangelogUpsert.run(args, new ExampleTesting.Output().stream);

        assertThatThrownBy(() -> ChangelogUpsert.run(args, new ExampleTesting.Output().stream))
                .hasMessageContaining("examples.customers already has data (snapshot ");
    }

    private static List<Object> values(RowData row) {
        return List.of(
                row.getLong(0),
                row.getString(1).toString(),
                row.getString(2).toString(),
                row.getInt(3));
    }
}
