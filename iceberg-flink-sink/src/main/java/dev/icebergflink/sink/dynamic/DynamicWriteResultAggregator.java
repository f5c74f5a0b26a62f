package dev.icebergflink.sink.dynamic;

import dev.icebergflink.sink.committer.CheckpointAggregator;
import dev.icebergflink.sink.committer.CommitOwner;
import dev.icebergflink.sink.committer.CommittableFactory;
import dev.icebergflink.sink.committer.IcebergCommittable;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;

/**
 * The dynamic sink's global commit step: one {@link DynamicCommittable} per table and branch per
 * checkpoint, its manifests written exactly as the single-table sink writes them ({@link
 * CommittableFactory}); checkpoints, end of input and state follow {@link CheckpointAggregator}.
 */
@Internal
final class DynamicWriteResultAggregator
        extends CheckpointAggregator<DynamicWriteResult, DynamicCommittable> {

    private static final long serialVersionUID = 1L;

    private final DynamicSinkSettings settings;

    private transient Catalog catalog;
    private transient CommittableFactory committables;
    private transient Map<TableIdentifier, Table> tables;

    DynamicWriteResultAggregator(DynamicSinkSettings settings, String runId) {
        super(runId);
        this.settings = settings;
    }

    @Override
    protected SimpleVersionedSerializer<DynamicWriteResult> resultSerializer() {
        return new DynamicWriteResultSerializer(settings.catalogLoader());
    }

    @Override
    public void open() throws Exception {
        super.open();
        catalog = settings.catalogLoader().loadCatalog();
        committables = new CommittableFactory();
        tables = LruMaps.bounded(settings.cacheMaxSize());
    }

    @Override
    protected List<DynamicCommittable> committables(
            CommitOwner owner,
            long checkpointId,
            boolean endOfInput,
            List<DynamicWriteResult> results)
            throws IOException {
        Map<Target, List<WriteResult>> byTarget = new LinkedHashMap<>();
        for (DynamicWriteResult result : results) {
            byTarget.computeIfAbsent(
                            new Target(result.table(), result.branch()), t -> new ArrayList<>())
                    .add(result.result());
        }
        List<DynamicCommittable> emitted = new ArrayList<>(byTarget.size());
        for (Map.Entry<Target, List<WriteResult>> entry : byTarget.entrySet()) {
            TableIdentifier table = entry.getKey().table();
            IcebergCommittable committable =
                    committables.create(
                            () -> table(table), owner, checkpointId, endOfInput, entry.getValue());
            emitted.add(new DynamicCommittable(table, entry.getKey().branch(), committable));
        }
        return emitted;
    }

    /** The table, refreshed: its newest specs and location for the manifests. */
    private Table table(TableIdentifier identifier) {
        Table table = tables.get(identifier);
        if (table == null) {
            table = catalog.loadTable(identifier);
            tables.put(identifier, table);
        } else {
            table.refresh();
        }
        return table;
    }

    @Override
    public void close() throws Exception {
        try {
            if (catalog instanceof Closeable closeable) {
                closeable.close();
            }
        } finally {
            super.close();
        }
    }

    private record Target(TableIdentifier table, String branch) {}
}
