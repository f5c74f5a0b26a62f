package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class DatabaseReplicationITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    /**
     * Three checkpoints' worth of changes: the first creates customers and orders, the second
     * creates shipments (change 80) and brings the schema changes (change 120).
     */
    private static final int CHANGES = 240;

    private static final int PER_CHECKPOINT = 80;

    @TempDir Path warehouse;

    @Test
    void everyTableHoldsTheRowsTheChangesLeaveInTheSchemaTheyEvolvedTo() throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();

        Map<TableIdentifier, List<RowData>> read =
                DatabaseReplication.run(
                        ExampleTesting.args(
                                ExampleTesting.catalogArgs(warehouse),
                                "--changes",
                                String.valueOf(CHANGES),
                                "--changes-per-checkpoint",
                                String.valueOf(PER_CHECKPOINT),
                                "--checkpoint-interval",
                                "100ms",
                                "--parallelism",
                                "2"),
                        output.stream);

        // The expected tables: the change log replayed into maps by key.
        Map<String, Map<Long, Map<String, String>>> expected = replay(CHANGES);
        // The change log covers what the test is about: in every table a busy row that was
        // deleted and not inserted again; rows whose last change came before the schema change
        // (no phone, a total that fits an int) and rows changed after it.
        for (String name : GeneratedChanges.TABLES) {
            assertThat(LongStream.rangeClosed(1, GeneratedChanges.BUSY_ROWS))
                    .as(name)
                    .anyMatch(id -> !expected.get(name).containsKey(id));
        }
        assertThat(expected.get("customers").values())
                .anyMatch(row -> !row.containsKey("phone"))
                .anyMatch(row -> row.containsKey("phone"));
        assertThat(expected.get("orders").values())
                .anyMatch(row -> Long.parseLong(row.get("total_cents")) < Integer.MAX_VALUE)
                .anyMatch(row -> Long.parseLong(row.get("total_cents")) > Integer.MAX_VALUE);

        Catalog catalog = ExampleTesting.catalog(warehouse).loadCatalog();
        Namespace shop = Namespace.of("shop");
        assertThat(catalog.listTables(shop))
                .containsExactlyInAnyOrder(
                        TableIdentifier.of(shop, "customers"),
                        TableIdentifier.of(shop, "orders"),
                        TableIdentifier.of(shop, "shipments"));
        assertThat(read.keySet())
                .containsExactly(
                        TableIdentifier.of(shop, "customers"),
                        TableIdentifier.of(shop, "orders"),
                        TableIdentifier.of(shop, "shipments"));

        for (String name : GeneratedChanges.TABLES) {
            TableIdentifier identifier = TableIdentifier.of(shop, name);
            Table table = catalog.loadTable(identifier);
            assertThat(TableUtil.formatVersion(table)).as(name).isEqualTo(2);
            assertThat(table.properties())
                    .as(name)
                    .containsEntry("write.metadata.delete-after-commit.enabled", "true");
            // What the example read back through the connector...
            RowFormat format = RowFormat.of(table.schema());
            Map<Long, Map<String, String>> readRows = new TreeMap<>();
            for (RowData row : read.get(identifier)) {
                readRows.put(row.getLong(0), values(table.schema(), format.values(row)));
            }
            assertThat(readRows).as(name).isEqualTo(expected.get(name));
            // ...and what Iceberg's own reader sees.
            Map<Long, Map<String, String>> icebergRows = new TreeMap<>();
            for (Map.Entry<Long, Record> record : ExampleTesting.recordsById(table).entrySet()) {
                icebergRows.put(record.getKey(), values(table.schema(), record.getValue()));
            }
            assertThat(icebergRows).as(name).isEqualTo(expected.get(name));
            // Every snapshot is the commit of a checkpoint.
            assertThat(table.snapshots())
                    .as(name)
                    .allSatisfy(
                            snapshot ->
                                    assertThat(snapshot.summary())
                                            .containsKey("flink.max-committed-checkpoint-id"));
        }

        // customers gained phone, an optional string, after it had rows without it.
        Table customers = catalog.loadTable(TableIdentifier.of(shop, "customers"));
        assertThat(customers.schema().findField("phone").type()).isEqualTo(Types.StringType.get());
        assertThat(customers.schema().findField("phone").isOptional()).isTrue();
        assertThat(customers.schemas()).hasSize(2);
        assertThat(oldestSchema(customers).findField("phone")).isNull();

        // orders.total_cents was widened from int to long.
        Table orders = catalog.loadTable(TableIdentifier.of(shop, "orders"));
        assertThat(orders.schema().findField("total_cents").type()).isEqualTo(Types.LongType.get());
        assertThat(orders.schemas()).hasSize(2);
        assertThat(oldestSchema(orders).findField("total_cents").type())
                .isEqualTo(Types.IntegerType.get());

        // shipments was created from its first change, with the schema that change had.
        Table shipments = catalog.loadTable(TableIdentifier.of(shop, "shipments"));
        assertThat(shipments.schemas()).hasSize(1);
        assertThat(shipments.schema().asStruct())
                .isEqualTo(GeneratedChanges.schema("shipments", 1).asStruct());
        assertThat(shipments.schema().identifierFieldNames()).containsExactly("id");

        assertThat(output.text())
                .contains("Replicated 240 changes")
                .contains("change 80: the first change of shipments")
                .contains(
                        "  schema 0: id long NOT NULL, customer_id long, total_cents int, status"
                                + " string\n")
                .contains(
                        "  schema 1: id long NOT NULL, customer_id long, total_cents long, status"
                                + " string (current)\n")
                .contains("shop.customers: " + expected.get("customers").size() + " rows, ");
    }

    @Test
    void refusesTableBecauseTheTablesAreNamedAfterTheSourceTables() {
        assertThatThrownBy(
                        () ->
                                DatabaseReplication.run(
                                        ExampleTesting.args(
                                                ExampleTesting.catalogArgs(warehouse),
                                                "--table",
                                                "shop.orders"),
                                        new ExampleTesting.Output().stream))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--database");
    }

    @Test
    void theChangeEventIsAFlinkPojo() {
        assertThat(TypeInformation.of(ChangeEvent.class)).isInstanceOf(PojoTypeInfo.class);
    }

    /** The source tables' rows after the first {@code count} changes: by table, then by id. */
    private static Map<String, Map<Long, Map<String, String>>> replay(int count) {
        GeneratedChanges changes = new GeneratedChanges(count);
        Map<String, Map<Long, Map<String, String>>> tables = new LinkedHashMap<>();
        for (long position = 0; position < count; position++) {
            ChangeEvent change = changes.map(position);
            Map<Long, Map<String, String>> rows =
                    tables.computeIfAbsent(change.table(), t -> new TreeMap<>());
            switch (change.operation()) {
                case INSERT, UPDATE -> rows.put(change.key(), Map.copyOf(change.values()));
                case DELETE -> rows.remove(change.key());
            }
        }
        return tables;
    }

    /** A row's non-id, non-null columns as text, keyed by column name. */
    private static Map<String, String> values(Schema schema, Object[] row) {
        Map<String, String> values = new TreeMap<>();
        List<Types.NestedField> columns = schema.columns();
        for (int pos = 0; pos < columns.size(); pos++) {
            if (!"id".equals(columns.get(pos).name()) && row[pos] != null) {
                values.put(columns.get(pos).name(), String.valueOf(row[pos]));
            }
        }
        return values;
    }

    private static Map<String, String> values(Schema schema, Record record) {
        Object[] row = new Object[schema.columns().size()];
        for (int pos = 0; pos < row.length; pos++) {
            row[pos] = record.get(pos);
        }
        return values(schema, row);
    }

    private static Schema oldestSchema(Table table) {
        return table.schemas().values().stream()
                .min(Comparator.comparingInt(Schema::schemaId))
                .orElseThrow();
    }
}
