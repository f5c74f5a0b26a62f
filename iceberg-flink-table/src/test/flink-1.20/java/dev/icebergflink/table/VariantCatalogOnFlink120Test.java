package dev.icebergflink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On Flink 1.20, which has no VARIANT type, an Iceberg catalog still lists a table with a variant
 * column, and using it (here DESCRIBE) fails naming the table, the column and the Flink version
 * VARIANT needs. No job runs, so no MiniCluster is needed.
 */
class VariantCatalogOnFlink120Test {

    @TempDir Path warehouse;

    @Test
    void tablesWithVariantColumnsAreListedButNotUsable() throws Exception {
        Catalog iceberg =
                CatalogLoader.hadoop(
                                "lake",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
        iceberg.createTable(
                TableIdentifier.of("default", "events"),
                new Schema(
                        Types.NestedField.optional(1, "id", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "payload", Types.VariantType.get())),
                PartitionSpec.unpartitioned(),
                Map.of("format-version", "3"));

        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(
                String.format(
                        "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                                + " 'warehouse'='%s')",
                        warehouse.toUri()));
        env.executeSql("USE CATALOG lake");
        List<Row> tables = new ArrayList<>();
        try (CloseableIterator<Row> rows = env.executeSql("SHOW TABLES").collect()) {
            rows.forEachRemaining(tables::add);
        }
        assertThat(tables).containsExactly(Row.of("events"));

        assertThatThrownBy(() -> env.executeSql("DESCRIBE events"))
                .satisfies(
                        e -> {
                            StringBuilder messages = new StringBuilder();
                            for (Throwable t = e; t != null; t = t.getCause()) {
                                messages.append(t.getMessage()).append('\n');
                            }
                            assertThat(messages.toString())
                                    .contains("events")
                                    .contains("Column 'payload'")
                                    .contains("Flink 2.1 or later");
                        });
    }
}
