package dev.icebergflink.sink.dynamic;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.FlinkWriteConf;
import dev.icebergflink.sink.writer.RowDataTaskWriterFactory;
import dev.icebergflink.sink.writer.RowDataToTableSchema;
import dev.icebergflink.sink.writer.WriterMetrics;
import dev.icebergflink.sink.writer.WriterMode;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dynamic sink's writer subtask: writes each {@link ResolvedRecord} into its table's files and,
 * at every checkpoint and at the end of input, hands on one {@link DynamicWriteResult} per table
 * and branch it wrote.
 *
 * <p>It writes with the table's schema and spec as its own table cache has them: a row resolved
 * against an older schema of the table is converted into the current one (the table only ever took
 * changes that keep older rows readable), and a record that names a schema or spec the cache does
 * not know yet makes it load the table again. Writers are made by the single-table sink's {@link
 * RowDataTaskWriterFactory} (one per table, branch, schema, spec and key), so rows, deletes and
 * files are written exactly as {@code IcebergSink} writes them; rows written by key track their
 * keys within the checkpoint, so that a later change of a key replaces an earlier one. When a table
 * written by key changes its schema or spec within a checkpoint, the files written before the
 * change and those written after it are handed on as two generations, committed in that order, so
 * that the later change of a key also replaces the earlier one across the change.
 *
 * <p>At most {@code maxOpenWriters} task writers that append are open at a time, across tables:
 * opening one more completes the least recently used one, whose files are handed on with the
 * checkpoint's results. Writers that write by key stay open until the checkpoint (see {@link
 * #completeLeastRecentlyUsedAppendWriter}). The memory for keys ({@code upsert-key-memory}, per
 * writer subtask) is shared among the open writers that write by key.
 *
 * <p>Like the single-table writer it keeps no state: files not handed on when a failure strikes are
 * written again from the replayed input and never committed.
 */
@Internal
final class DynamicWriter implements CommittingSinkWriter<ResolvedRecord, DynamicWriteResult> {

    private static final Logger LOG = LoggerFactory.getLogger(DynamicWriter.class);

    private final DynamicSinkSettings settings;
    private final WriterMetrics metrics;
    private final int subtaskId;
    private final int attemptId;
    private final SpillDirectories spillDirectories;
    private final Catalog catalog;
    private final TableMetadataCache tables;
    private final LinkedHashMap<WriterKey, RowDataTaskWriterFactory> factories;
    private final LinkedHashMap<WriterKey, TaskWriter<RowData>> open =
            new LinkedHashMap<>(16, 0.75f, true);
    private final List<DynamicWriteResult> completed = new ArrayList<>();

    /** This checkpoint's generation of each table and branch written by key (see openWriter). */
    private final Map<Target, Integer> generations = new HashMap<>();

    /** The generation of each open writer's files. */
    private final Map<WriterKey, Integer> writerGenerations = new HashMap<>();

    private final LinkedHashMap<Conversion, RowDataToTableSchema> converters;
    private final Set<RecordShape> checkedAgainstCatalog =
            Collections.newSetFromMap(LruMaps.bounded(1024));

    /** Where a writer subtask spills upsert keys, per table's options. */
    @FunctionalInterface
    interface SpillDirectories {
        String resolve(String configured);
    }

    DynamicWriter(
            DynamicSinkSettings settings,
            WriterMetrics metrics,
            int subtaskId,
            int attemptId,
            SpillDirectories spillDirectories) {
        this.settings = settings;
        this.metrics = metrics;
        this.subtaskId = subtaskId;
        this.attemptId = attemptId;
        this.spillDirectories = spillDirectories;
        this.catalog = settings.catalogLoader().loadCatalog();
        // No refresh by age: records name the schema and spec they were resolved against, and a
        // record naming one this writer does not know makes it load the table (see table()), so
        // the writers add no catalog load per table and second to the resolution's own
        this.tables =
                new TableMetadataCache(
                        catalog,
                        settings.cacheMaxSize(),
                        Long.MAX_VALUE,
                        System::currentTimeMillis);
        this.factories =
                LruMaps.bounded(Math.max(settings.cacheMaxSize(), settings.maxOpenWriters()));
        this.converters =
                LruMaps.bounded(Math.max(16, settings.inputSchemasPerTableCacheMaxSize()));
    }

    @Override
    public void write(ResolvedRecord record, Context context) throws IOException {
        Table table = table(record);
        RowData row = record.row();
        if (record.schemaId() != table.schema().schemaId()) {
            row = converter(table, record.schemaId()).convert(row);
        }
        WriterKey key =
                new WriterKey(
                        record.table(),
                        record.branch(),
                        table.schema().schemaId(),
                        table.spec().specId(),
                        record.upsert(),
                        fieldIds(record.equalityFieldIds()));
        TaskWriter<RowData> writer = open.get(key);
        if (writer == null) {
            writer = openWriter(key, table);
        }
        writer.write(row);
        metrics.recordWritten();
    }

    private static List<Integer> fieldIds(int[] ids) {
        return ids.length == 0 ? List.of() : Arrays.stream(ids).boxed().toList();
    }

    /**
     * The table as this writer knows it, loaded again when the record names a schema or spec that
     * differs from the cached table's current ones and was not checked against the catalog yet.
     */
    private Table table(ResolvedRecord record) {
        TableIdentifier id = record.table();
        Table table = cached(id);
        if (record.schemaId() == table.schema().schemaId()
                && record.specId() == table.spec().specId()) {
            return table;
        }
        if (checkedAgainstCatalog.add(new RecordShape(id, record.schemaId(), record.specId()))) {
            LOG.info(
                    "Table {}: a record of schema {} and spec {}; loading the table again",
                    id,
                    record.schemaId(),
                    record.specId());
            tables.invalidate(id);
            table = cached(id);
        }
        if (table.schemas().get(record.schemaId()) == null) {
            throw new IllegalStateException(
                    "Table "
                            + id
                            + " has no schema with id "
                            + record.schemaId()
                            + "; was it dropped and created again while the job wrote to it?");
        }
        return table;
    }

    private Table cached(TableIdentifier id) {
        return tables.table(id)
                .orElseThrow(
                        () ->
                                new IllegalStateException(
                                        "Table "
                                                + id
                                                + " does not exist any more; it was dropped while"
                                                + " the job wrote to it"));
    }

    private RowDataToTableSchema converter(Table table, int schemaId) {
        return converters.computeIfAbsent(
                new Conversion(table.name(), schemaId, table.schema().schemaId()),
                c ->
                        new RowDataToTableSchema(
                                table.schemas().get(schemaId),
                                table.schema(),
                                settings.caseSensitive()));
    }

    private TaskWriter<RowData> openWriter(WriterKey key, Table table) {
        if (open.size() >= settings.maxOpenWriters()) {
            completeLeastRecentlyUsedAppendWriter();
        }
        int generation =
                key.writesByKey()
                        ? keyedGeneration(key)
                        : generations.getOrDefault(key.target(), 0);
        RowDataTaskWriterFactory factory = factories.get(key);
        if (factory == null) {
            factory = factory(key, table);
            factories.put(key, factory);
        }
        TaskWriter<RowData> writer = factory.create();
        open.put(key, writer);
        writerGenerations.put(key, generation);
        return writer;
    }

    /**
     * Makes room for one more writer by completing the least recently used writer that appends.
     * Writers that write by key stay open until the checkpoint: a key's earlier change in a
     * completed writer's files would survive its later change, since both go into one commit and
     * Iceberg applies equality deletes only to earlier commits.
     */
    private void completeLeastRecentlyUsedAppendWriter() {
        Iterator<Map.Entry<WriterKey, TaskWriter<RowData>>> writers = open.entrySet().iterator();
        while (writers.hasNext()) {
            Map.Entry<WriterKey, TaskWriter<RowData>> candidate = writers.next();
            if (!candidate.getKey().writesByKey()) {
                writers.remove();
                LOG.debug(
                        "Completing the writer of {}: {} writers are open",
                        candidate.getKey(),
                        open.size() + 1);
                complete(candidate.getKey(), candidate.getValue());
                return;
            }
        }
    }

    /**
     * The generation of a new writer by key. Its table and branch start a new generation when they
     * have open writers by key of another schema or spec: the table changed in the middle of the
     * checkpoint. Rows are always written in the newest schema and spec this writer knows, so those
     * writers get no more rows: their files are completed now, and the new writer's files, whose
     * equality deletes must apply to theirs, are committed after them (Iceberg applies equality
     * deletes to data of earlier commits only).
     */
    private int keyedGeneration(WriterKey key) {
        Target target = key.target();
        List<WriterKey> superseded = new ArrayList<>();
        for (WriterKey other : open.keySet()) {
            if (other.writesByKey()
                    && other.target().equals(target)
                    && (other.schemaId() != key.schemaId() || other.specId() != key.specId())) {
                superseded.add(other);
            }
        }
        Integer current = generations.get(target);
        if (superseded.isEmpty()) {
            int generation = current == null ? 0 : current;
            generations.put(target, generation);
            return generation;
        }
        int generation = current + 1;
        for (WriterKey other : superseded) {
            complete(other, open.remove(other));
        }
        generations.put(target, generation);
        LOG.info(
                "Table {} branch {}: schema {} / spec {} replaces schema {} / spec {} within a"
                        + " checkpoint for rows written by key; their files are committed as"
                        + " generation {} after the earlier ones",
                key.table(),
                key.branch(),
                key.schemaId(),
                key.specId(),
                superseded.get(0).schemaId(),
                superseded.get(0).specId(),
                generation);
        return generation;
    }

    private RowDataTaskWriterFactory factory(WriterKey key, Table table) {
        FlinkWriteConf conf = settings.writeConf(table.properties());
        WriterMode mode =
                key.upsert()
                        ? WriterMode.UPSERT
                        : key.equalityFieldIds().isEmpty()
                                ? WriterMode.APPEND
                                : WriterMode.CHANGELOG;
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(table.schema()),
                        conf.format(),
                        conf.targetFileSizeBytes(),
                        conf.writeProperties(mode.appendsOnly()),
                        mode,
                        key.equalityFieldIds());
        if (!mode.appendsOnly()) {
            long keyMemory =
                    Math.max(1L << 20, conf.upsertKeyMemoryBytes() / settings.maxOpenWriters());
            factory =
                    factory.withKeyTracking(
                            keyMemory, spillDirectories.resolve(conf.upsertSpillDirectory()));
        }
        factory.initialize(subtaskId, attemptId);
        LOG.info(
                "Writer {} of table {}: {} writer for schema {} and spec {}",
                subtaskId,
                key.table(),
                mode,
                key.schemaId(),
                key.specId());
        return factory;
    }

    private void complete(WriterKey key, TaskWriter<RowData> writer) {
        try {
            WriteResult result = writer.complete();
            metrics.completed(result);
            int generation = writerGenerations.remove(key);
            completed.add(new DynamicWriteResult(key.table(), key.branch(), generation, result));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Completing the files of table " + key.table() + " failed", e);
        }
    }

    @Override
    public void flush(boolean endOfInput) {
        // files are completed in prepareCommit, which Flink calls right after flush
    }

    @Override
    public Collection<DynamicWriteResult> prepareCommit() {
        List<Map.Entry<WriterKey, TaskWriter<RowData>>> writers = new ArrayList<>(open.entrySet());
        open.clear();
        for (Map.Entry<WriterKey, TaskWriter<RowData>> entry : writers) {
            complete(entry.getKey(), entry.getValue());
        }
        List<DynamicWriteResult> results = merged(completed);
        completed.clear();
        generations.clear();
        LOG.debug("Writer {} hands on {}", subtaskId, results);
        return results;
    }

    /** One result per table, branch and generation. */
    private static List<DynamicWriteResult> merged(List<DynamicWriteResult> results) {
        Map<List<Object>, WriteResult.Builder> byTarget = new LinkedHashMap<>();
        Map<List<Object>, DynamicWriteResult> first = new LinkedHashMap<>();
        for (DynamicWriteResult result : results) {
            List<Object> target = List.of(result.table(), result.branch(), result.generation());
            byTarget.computeIfAbsent(target, t -> WriteResult.builder()).add(result.result());
            first.putIfAbsent(target, result);
        }
        List<DynamicWriteResult> merged = new ArrayList<>(byTarget.size());
        byTarget.forEach(
                (target, builder) -> {
                    DynamicWriteResult sample = first.get(target);
                    merged.add(
                            new DynamicWriteResult(
                                    sample.table(),
                                    sample.branch(),
                                    sample.generation(),
                                    builder.build()));
                });
        return merged;
    }

    @Override
    public void close() throws Exception {
        try {
            for (TaskWriter<RowData> writer : open.values()) {
                writer.abort();
            }
            open.clear();
            writerGenerations.clear();
        } finally {
            if (catalog instanceof Closeable closeable) {
                closeable.close();
            }
        }
    }

    /** The task writers' key: one writer per table, branch, schema, spec and row key. */
    private record WriterKey(
            TableIdentifier table,
            String branch,
            int schemaId,
            int specId,
            boolean upsert,
            List<Integer> equalityFieldIds) {

        /** Whether rows are written by key (upserts or equality fields). */
        boolean writesByKey() {
            return upsert || !equalityFieldIds.isEmpty();
        }

        Target target() {
            return new Target(table, branch);
        }
    }

    /** A table and branch. */
    private record Target(TableIdentifier table, String branch) {}

    /** A table schema and spec a record named. */
    private record RecordShape(TableIdentifier table, int schemaId, int specId) {}

    /** Rows of one schema of a table converted into another. */
    private record Conversion(String table, int fromSchemaId, int toSchemaId) {}
}
