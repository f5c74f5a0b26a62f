package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TableMetadataCacheTest {

    private static final Schema SCHEMA =
            new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    private static final TableIdentifier A = TableIdentifier.of("db", "a");
    private static final TableIdentifier B = TableIdentifier.of("db", "b");

    @RegisterExtension final HadoopWarehouse warehouse = new HadoopWarehouse();

    private HadoopCatalog catalog;
    private final AtomicLong now = new AtomicLong(1_000);

    @BeforeEach
    void openCatalog() {
        catalog = warehouse.catalog();
    }

    @Test
    void aTableIsLoadedOnceAndAgainWhenItIsOlderThanTheRefreshTime() {
        catalog.createTable(A, SCHEMA, PartitionSpec.unpartitioned());
        TableMetadataCache cache = new TableMetadataCache(catalog, 10, 500, now::get);
        Table first = cache.table(A).orElseThrow();

        // another writer adds a column
        catalog.loadTable(A).updateSchema().addColumn("note", Types.StringType.get()).commit();
        now.addAndGet(499);
        assertThat(cache.table(A).orElseThrow()).isSameAs(first);
        assertThat(cache.table(A).orElseThrow().schema().findField("note")).isNull();

        now.addAndGet(1);
        assertThat(cache.table(A).orElseThrow().schema().findField("note")).isNotNull();
    }

    @Test
    void aMissingTableIsRememberedAsMissingUntilTheRefreshTime() {
        TableMetadataCache cache = new TableMetadataCache(catalog, 10, 500, now::get);
        assertThat(cache.table(A)).isEmpty();
        catalog.createTable(A, SCHEMA, PartitionSpec.unpartitioned());
        assertThat(cache.table(A)).isEmpty();
        now.addAndGet(500);
        assertThat(cache.table(A)).isPresent();
    }

    @Test
    void updatesAndInvalidationsReplaceTheCachedState() {
        TableMetadataCache cache = new TableMetadataCache(catalog, 10, 60_000, now::get);
        assertThat(cache.table(A)).isEmpty();
        Table created = catalog.createTable(A, SCHEMA, PartitionSpec.unpartitioned());
        cache.update(A, created);
        assertThat(cache.table(A)).containsSame(created);
        cache.invalidate(A);
        assertThat(cache.table(A).orElseThrow()).isNotSameAs(created);
    }

    @Test
    void theLeastRecentlyUsedTableIsForgottenFirst() {
        catalog.createTable(A, SCHEMA, PartitionSpec.unpartitioned());
        catalog.createTable(B, SCHEMA, PartitionSpec.unpartitioned());
        TableMetadataCache cache = new TableMetadataCache(catalog, 2, 60_000, now::get);
        Table a = cache.table(A).orElseThrow();
        Table b = cache.table(B).orElseThrow();
        cache.table(A); // A is now the most recently used
        TableIdentifier c = TableIdentifier.of("db", "c");
        cache.table(c); // missing, but cached: B goes
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.table(A)).containsSame(a);
        assertThat(cache.table(B).orElseThrow()).as("loaded again").isNotSameAs(b);
    }

    @Test
    void sizesAndRefreshTimesAreValidated() {
        assertThatThrownBy(() -> new TableMetadataCache(catalog, 0, 1, now::get))
                .hasMessage("cacheMaxSize must be at least 1, got 0");
        assertThatThrownBy(() -> new TableMetadataCache(catalog, 1, -1, now::get))
                .hasMessage("cacheRefreshMs must not be negative, got -1");
    }
}
