package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RecordResolverTest {

    private static final TableIdentifier ID = TableIdentifier.of("db", "orders");
    private static final Schema OLD =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    private static final Schema NEW =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "note", Types.StringType.get()));

    @RegisterExtension final HadoopWarehouse warehouse = new HadoopWarehouse();

    private HadoopCatalog catalog;
    private RecordResolver resolver;

    @BeforeEach
    void openCatalog() {
        catalog = warehouse.catalog();
        TableMetadataCache tables = new TableMetadataCache(catalog, 10, 60_000, () -> 0L);
        resolver =
                new RecordResolver(
                        new TableUpdater(catalog, tables, TableCreator.DEFAULT, false, false),
                        tables,
                        2,
                        false);
    }

    @Test
    void recordsOfAKnownSchemaReuseWhatWasWorkedOut() {
        RecordResolver.Resolved first =
                resolver.resolve(record(OLD, GenericRowData.of(1, text("a"))));
        RecordResolver.Resolved second =
                resolver.resolve(record(copyOf(OLD), GenericRowData.of(2, text("b"))));
        assertThat(second).isSameAs(first);
        assertThat(first.converter().isIdentity()).isTrue();
        assertThat(catalog.loadTable(ID).schema().sameSchema(OLD)).isTrue();
    }

    @Test
    void aNewSchemaEvolvesTheTableAndOlderSchemasAreWorkedOutAgain() {
        RecordResolver.Resolved old =
                resolver.resolve(record(OLD, GenericRowData.of(1, text("a"))));
        RecordResolver.Resolved evolved =
                resolver.resolve(record(NEW, GenericRowData.of(2, text("b"), text("n"))));
        assertThat(evolved.schemaId()).isNotEqualTo(old.schemaId());

        RecordResolver.Resolved oldAgain =
                resolver.resolve(record(OLD, GenericRowData.of(3, text("c"))));
        assertThat(oldAgain).isNotSameAs(old);
        assertThat(oldAgain.schemaId()).isEqualTo(evolved.schemaId());
        RowData row = oldAgain.converter().convert(GenericRowData.of(3, text("c")));
        assertThat(row.getArity()).isEqualTo(3);
        assertThat(row.getInt(0)).isEqualTo(3);
        assertThat(row.getString(1).toString()).isEqualTo("c");
        assertThat(row.isNullAt(2)).isTrue();
    }

    @Test
    void theNumberOfRememberedInputSchemasIsValidated() {
        TableMetadataCache tables = new TableMetadataCache(catalog, 1, 1, () -> 0L);
        TableUpdater updater =
                new TableUpdater(catalog, tables, TableCreator.DEFAULT, false, false);
        assertThatThrownBy(() -> new RecordResolver(updater, tables, 0, false))
                .hasMessage("inputSchemasPerTableCacheMaxSize must be at least 1, got 0");
    }

    private static DynamicRecord record(Schema schema, RowData row) {
        return new DynamicRecord(ID, null, schema, row, PartitionSpec.unpartitioned());
    }

    private static Schema copyOf(Schema schema) {
        return new Schema(schema.columns());
    }

    private static StringData text(String value) {
        return StringData.fromString(value);
    }
}
