package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TableDefinitionsTest {

    @Test
    void resolvedSchemaKeepsComments() {
        Schema schema =
                new Schema(
                        java.util.List.of(
                                Types.NestedField.required(
                                        1, "id", Types.LongType.get(), "the key"),
                                Types.NestedField.optional(2, "data", Types.StringType.get())),
                        java.util.Set.of(1));
        ResolvedSchema resolved = FlinkSchemaUtil.toResolvedSchema(schema);
        assertThat(resolved.getColumns().get(0).getComment()).hasValue("the key");
        org.apache.iceberg.inmemory.InMemoryCatalog catalog =
                new org.apache.iceberg.inmemory.InMemoryCatalog();
        catalog.initialize("mem", java.util.Map.of());
        catalog.createNamespace(org.apache.iceberg.catalog.Namespace.of("db"));
        org.apache.iceberg.Table table =
                catalog.createTable(
                        org.apache.iceberg.catalog.TableIdentifier.of("db", "t"), schema);
        org.apache.flink.table.catalog.CatalogTable ct = TableDefinitions.toCatalogTable(table);
        assertThat(ct.getUnresolvedSchema().getColumns().get(0).getComment()).hasValue("the key");
    }
}
