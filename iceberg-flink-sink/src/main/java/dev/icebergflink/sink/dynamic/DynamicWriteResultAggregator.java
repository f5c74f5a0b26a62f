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
 * The dynamic sink's global commit step: one {@link DynamicCommittable} per table, branch and
 * generation per checkpoint, its manifests written exactly as the single-table sink writes them
 * ({@link CommittableFactory}); checkpoints, end of input and state follow {@link
 * CheckpointAggregator}. Generation g > 0 (a table that changed its schema or spec while rows were
 * written into it by key) commits under an owner of its own, the operator id with {@code .g<g>}, so
 * that its progress is recorded apart from the earlier generation's.
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
                            new Target(result.table(), result.branch(), result.generation()),
                            t -> new ArrayList<>())
                    .add(result.result());
        }
        List<DynamicCommittable> emitted = new ArrayList<>(byTarget.size());
        for (Map.Entry<Target, List<WriteResult>> entry : byTarget.entrySet()) {
            Target target = entry.getKey();
            IcebergCommittable committable =
                    committables.create(
                            () -> table(target.table()),
                            ownerOf(owner, target.generation()),
                            checkpointId,
                            endOfInput,
                            entry.getValue());
            emitted.add(
                    new DynamicCommittable(
                            target.table(), target.branch(), target.generation(), committable));
        }
        return emitted;
    }

    /** The owner of a generation's commits: the operator's own for generation 0. */
    static CommitOwner ownerOf(CommitOwner owner, int generation) {
        return generation == 0
                ? owner
                : new CommitOwner(
                        owner.jobId(), owner.operatorId() + ".g" + generation, owner.runId());
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

    private record Target(TableIdentifier table, String branch, int generation) {}
}
