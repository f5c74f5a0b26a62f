package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.planning.TableIdentity;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source's enumerators keep the table's UUID in their checkpoints: restoring one after the
 * table was dropped and re-created under the same name fails at start, without restarts, naming
 * both UUIDs; a state without a UUID (written before it was kept) adopts the table's.
 */
class RecreatedTableRestoreTest {

    private static final TableIdentifier ID = TableIdentifier.of("db", "t");

    @TempDir Path dir;
    private Catalog catalog;
    private TableLoader loader;
    private Table table;

    @BeforeEach
    void createTable() {
        CatalogLoader catalogLoader =
                CatalogLoader.hadoop(
                        "hadoop",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", dir.toUri().toString()));
        catalog = catalogLoader.loadCatalog();
        ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
        table = create();
        SourceTestTables.append(table, 0, 5);
        loader = TableLoader.fromCatalog(catalogLoader, ID);
    }

    private Table create() {
        return catalog.createTable(
                ID,
                SourceTestTables.SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    private IcebergSource<RowData> source(boolean streaming) {
        return IcebergSource.forRowData()
                .tableLoader(loader)
                .streaming(streaming)
                .monitorInterval(Duration.ofSeconds(1))
                .build();
    }

    /** A checkpoint of a freshly started enumerator whose first round ran, as bytes. */
    private byte[] checkpoint(IcebergSource<RowData> source) throws Exception {
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(1);
        try (SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> enumerator =
                source.createEnumerator(context)) {
            enumerator.start();
            context.triggerAllActions();
            IcebergEnumeratorState state = enumerator.snapshotState(1);
            assertThat(state.tableUuid()).isEqualTo(TableIdentity.uuidOf(table)).isNotNull();
            return source.getEnumeratorCheckpointSerializer().serialize(state);
        }
    }

    private SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> restore(
            IcebergSource<RowData> source, byte[] checkpoint, int version) throws Exception {
        IcebergEnumeratorState state =
                source.getEnumeratorCheckpointSerializer().deserialize(version, checkpoint);
        return source.restoreEnumerator(
                new TestingSplitEnumeratorContext<IcebergSourceSplit>(1), state);
    }

    @Test
    void restoringAStreamingReadOfAReCreatedTableFailsAtStart() throws Exception {
        IcebergSource<RowData> source = source(true);
        byte[] checkpoint = checkpoint(source);
        String oldUuid = TableIdentity.uuidOf(table);

        assertThat(catalog.dropTable(ID, true)).isTrue();
        Table newTable = create();
        SourceTestTables.append(newTable, 0, 5);

        try (var restored =
                restore(source, checkpoint, IcebergEnumeratorStateSerializer.CURRENT_VERSION)) {
            assertThatThrownBy(restored::start)
                    .isInstanceOf(SuppressRestartsException.class)
                    .hasStackTraceContaining("Table hadoop.db.t was dropped and re-created")
                    .hasStackTraceContaining("UUID " + oldUuid)
                    .hasStackTraceContaining("now has UUID " + TableIdentity.uuidOf(newTable));
        }
    }

    @Test
    void restoringABoundedReadOfAReCreatedTableFailsAtStart() throws Exception {
        IcebergSource<RowData> source = source(false);
        byte[] checkpoint = checkpoint(source);
        assertThat(catalog.dropTable(ID, true)).isTrue();
        create();
        try (var restored =
                restore(source, checkpoint, IcebergEnumeratorStateSerializer.CURRENT_VERSION)) {
            assertThatThrownBy(restored::start)
                    .isInstanceOf(SuppressRestartsException.class)
                    .hasStackTraceContaining("dropped and re-created");
        }
    }

    @Test
    void aStateWithoutUuidAdoptsTheTablesOnRestore() throws Exception {
        IcebergSource<RowData> source = source(true);
        IcebergEnumeratorStateSerializer serializer = source.getEnumeratorCheckpointSerializer();
        IcebergEnumeratorState current =
                serializer.deserialize(serializer.getVersion(), checkpoint(source));
        IcebergEnumeratorState old =
                new IcebergEnumeratorState(
                        current.position(), current.pagedScan(), current.pendingSplits(), null);
        try (var restored =
                source.restoreEnumerator(
                        new TestingSplitEnumeratorContext<IcebergSourceSplit>(1), old)) {
            restored.start();
            assertThat(restored.snapshotState(2).tableUuid())
                    .isEqualTo(TableIdentity.uuidOf(table));
        }
    }
}
