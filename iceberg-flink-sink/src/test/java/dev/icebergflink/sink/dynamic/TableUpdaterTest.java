package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tables created, evolved, repartitioned and branched for records, also against other writers. */
class TableUpdaterTest {

    private static final TableIdentifier ID = TableIdentifier.of("db", "t");
    private static final Schema V1 =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    private static final Schema V2 =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "note", Types.StringType.get()));

    @RegisterExtension final HadoopWarehouse warehouse = new HadoopWarehouse();

    private HadoopCatalog catalog;
    private long now;

    @BeforeEach
    void openCatalog() {
        catalog = warehouse.catalog();
    }

    @Test
    void aMissingTableIsCreatedByTheCreatorAndLeftAloneWhenItFits() {
        TableCreator withProperties =
                (catalog, identifier, schema, spec) ->
                        catalog.createTable(
                                identifier,
                                schema,
                                spec,
                                Map.of(TableProperties.DEFAULT_FILE_FORMAT, "orc"));
        TableUpdater updater = updater(withProperties);
        PartitionSpec byData = PartitionSpec.builderFor(V1).identity("data").build();

        Table table = updater.update(ID, null, V1, byData);

        assertThat(table.schema().asStruct()).isEqualTo(V1.asStruct());
        assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("data");
        assertThat(table.properties()).containsEntry(TableProperties.DEFAULT_FILE_FORMAT, "orc");
        String metadata = location(table);
        assertThat(location(updater.update(ID, null, V1, byData)))
                .as("nothing committed for records the table takes")
                .isEqualTo(metadata);
    }

    @Test
    void theSchemaEvolvesAndTheSpecBecomesTheRecordsSpec() {
        TableUpdater updater = updater(TableCreator.DEFAULT);
        updater.update(ID, null, V1, PartitionSpec.builderFor(V1).identity("data").build());

        PartitionSpec byBucket = PartitionSpec.builderFor(V2).bucket("id", 4).build();
        Table table = updater.update(ID, null, V2, byBucket);

        assertThat(table.schema().findField("id").type()).isEqualTo(Types.LongType.get());
        assertThat(table.schema().findField("note")).isNotNull();
        assertThat(table.spec().fields())
                .singleElement()
                .satisfies(f -> assertThat(f.transform().toString()).isEqualTo("bucket[4]"));
        assertThat(table.specs()).hasSize(2);
        assertThat(catalog.loadTable(ID).spec().specId()).isEqualTo(table.spec().specId());
    }

    @Test
    void aBranchIsCreatedForItsFirstRecords() {
        TableUpdater updater = updater(TableCreator.DEFAULT);
        Table table = updater.update(ID, "audit", V1, PartitionSpec.unpartitioned());
        assertThat(table.refs()).containsKey("audit");
        assertThat(catalog.loadTable(ID).refs()).containsKey("audit");
    }

    @Test
    void aWriterWithStaleMetadataConvergesOnTheChangeAnotherMade() {
        TableUpdater first = updater(TableCreator.DEFAULT);
        TableUpdater second = updater(TableCreator.DEFAULT);
        first.update(ID, null, V1, PartitionSpec.unpartitioned());
        second.update(ID, null, V1, PartitionSpec.unpartitioned()); // caches V1

        first.update(ID, null, V2, PartitionSpec.unpartitioned());
        Table table = second.update(ID, null, V2, PartitionSpec.unpartitioned());

        assertThat(table.schema().asStruct()).isEqualTo(catalog.loadTable(ID).schema().asStruct());
        assertThat(table.schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id", "data", "note");
        assertThat(table.schemas()).as("one evolution, not two").hasSize(2);
    }

    @Test
    void aTableCreatedElsewhereMeanwhileIsUsed() {
        TableUpdater updater = updater(TableCreator.DEFAULT);
        TableCreator late =
                (catalog, identifier, schema, spec) -> {
                    catalog.createTable(identifier, V2, PartitionSpec.unpartitioned());
                    return catalog.createTable(identifier, schema, spec);
                };
        Table table = updater(late).update(ID, null, V1, PartitionSpec.unpartitioned());
        assertThat(table.schema().findField("note")).isNotNull();
        assertThat(updater.update(ID, null, V1, PartitionSpec.unpartitioned()).schema().columns())
                .hasSize(3);
    }

    @Test
    void anIncompatibleSchemaChangesNothing() {
        TableUpdater updater = updater(TableCreator.DEFAULT);
        updater.update(ID, null, V2, PartitionSpec.unpartitioned());
        Schema changed =
                new Schema(
                        Types.NestedField.required(1, "id", Types.StringType.get()),
                        Types.NestedField.optional(2, "extra", Types.StringType.get()));
        assertThatThrownBy(() -> updater.update(ID, null, changed, PartitionSpec.unpartitioned()))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageContaining("Table db.t: column 'id' is long in the table and string");
        assertThat(catalog.loadTable(ID).schema().findField("extra")).isNull();
    }

    private TableUpdater updater(TableCreator creator) {
        TableMetadataCache cache = new TableMetadataCache(catalog, 10, 60_000, () -> now);
        return new TableUpdater(catalog, cache, creator, false, false);
    }

    private static String location(Table table) {
        return ((org.apache.iceberg.HasTableOperations) table)
                .operations()
                .current()
                .metadataFileLocation();
    }
}
