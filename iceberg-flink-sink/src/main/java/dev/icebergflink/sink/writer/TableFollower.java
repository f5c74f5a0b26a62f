package dev.icebergflink.sink.writer;

import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a writer subtask's task-writer factory in step with its table ({@code
 * table-refresh-interval}): at most once per interval, when the writer starts a checkpoint's files,
 * it loads the table, and when its schema or partition spec changed it makes a factory for the
 * table as it is now and converts the input's rows into the new schema.
 *
 * <p>It exists so that a long-running sink follows partition evolution and columns added or widened
 * by another job or by {@code ALTER TABLE} without a restart: rows keep the shape the job was built
 * with (the schema of the table then), and {@link RowDataToTableSchema} turns them into rows of the
 * new schema (new columns NULL, widened types widened). Files written before the change keep their
 * spec; the commit takes files of both.
 */
@Internal
public final class TableFollower {

    private static final Logger LOG = LoggerFactory.getLogger(TableFollower.class);

    private final TableLoader loader;
    private final long intervalMillis;
    private final LongSupplier clock;
    private final Schema inputSchema;
    private final int subtaskId;
    private final int attemptId;
    private RowDataTaskWriterFactory factory;
    private RowDataToTableSchema converter;
    private long loadedAt;

    /**
     * @param factory the factory of the table as the job was built, initialized
     * @param loader loads the table (cloned; this keeps its own)
     * @param interval how often to look for changes
     * @param clock the current time in milliseconds
     */
    public TableFollower(
            RowDataTaskWriterFactory factory,
            TableLoader loader,
            Duration interval,
            LongSupplier clock,
            int subtaskId,
            int attemptId) {
        this.factory = factory;
        this.loader = loader.clone();
        this.intervalMillis = interval.toMillis();
        this.clock = clock;
        this.inputSchema = factory.dataSchema();
        this.subtaskId = subtaskId;
        this.attemptId = attemptId;
        this.loadedAt = clock.getAsLong();
    }

    /**
     * The factory for the next checkpoint's files: the current one, or one for the table's new
     * schema or spec when the interval has passed and the table changed.
     */
    public RowDataTaskWriterFactory factory() {
        long now = clock.getAsLong();
        if (now - loadedAt < intervalMillis) {
            return factory;
        }
        loadedAt = now;
        Table table = load();
        Table written = factory.table();
        if (table.schema().schemaId() == written.schema().schemaId()
                && table.spec().specId() == written.spec().specId()) {
            return factory;
        }
        LOG.info(
                "Table {} changed: writer {} now writes schema {} and spec {} (was {} and {})",
                table.name(),
                subtaskId,
                table.schema().schemaId(),
                table.spec().specId(),
                written.schema().schemaId(),
                written.spec().specId());
        RowDataTaskWriterFactory followed = factory.forTable(table);
        followed.initialize(subtaskId, attemptId);
        RowDataToTableSchema newConverter =
                new RowDataToTableSchema(inputSchema, table.schema(), true);
        factory = followed;
        converter = newConverter.isIdentity() ? null : newConverter;
        return factory;
    }

    /** The input row in the form of the current factory's schema. */
    public RowData convert(RowData row) {
        return converter == null ? row : converter.convert(row);
    }

    private Table load() {
        try {
            return loader.loadTable();
        } finally {
            try {
                loader.close();
            } catch (IOException e) {
                LOG.debug("Closing the table loader failed", e);
            }
        }
    }
}
