package dev.icebergflink.sink.dynamic;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The dynamic sink's first operator: runs the user's {@link DynamicRecordGenerator} and resolves
 * each record it emits against the table as cached.
 *
 * <p>A record whose table takes it as it is goes straight on to the writers. A record whose table
 * is missing or needs a schema, spec or branch change goes to {@link #TABLE_UPDATES}, which the
 * sink keys by table into {@link TableUpdateFunction}, so that one operator instance makes every
 * change of a table and writers never race each other in the catalog; the table's later records
 * take the same way until the next checkpoint barrier, so that the changes of one key keep their
 * order (see {@link #detoured}). With {@code immediateTableUpdate} this operator makes the changes
 * itself (no extra hop; concurrent changes by its parallel instances converge, see {@link
 * TableUpdater}).
 *
 * @param <T> the input record type
 */
@Internal
final class DynamicRecordProcessor<T> extends ProcessFunction<T, ResolvedRecord>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** Records whose table needs a change before they can be written. */
    static final OutputTag<DynamicRecord> TABLE_UPDATES =
            new OutputTag<>(
                    "iceberg-table-updates",
                    new SerializerTypeInfo<>(DynamicRecord.class, DynamicRecordSerializer::new));

    /** Records that cannot be written, when the sink is asked to emit them. */
    static final OutputTag<IncompatibleRecord> INCOMPATIBLE =
            new OutputTag<>(
                    "iceberg-incompatible-records", TypeInformation.of(IncompatibleRecord.class));

    private final DynamicRecordGenerator<T> generator;
    private final DynamicSinkSettings settings;

    private transient DynamicResolution resolution;
    private transient RecordCollector collector;

    /**
     * Tables whose records took the way through the table changes since the last checkpoint
     * barrier: their records keep taking it until the next one. Two ways to the writers keep no
     * order between them, so a table that went straight on again as soon as its change was visible
     * could have a later change of a key overtake an earlier one still on the other way. A barrier
     * is where both ways are in step again: with aligned checkpoints the writers take every record
     * sent before it, on either way, before any record sent after it.
     */
    private transient Set<TableIdentifier> detoured;

    DynamicRecordProcessor(DynamicRecordGenerator<T> generator, DynamicSinkSettings settings) {
        this.generator = generator;
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        super.open(openContext);
        generator.open(openContext);
        resolution = new DynamicResolution(settings);
        collector = new RecordCollector();
        detoured = new HashSet<>();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        // nothing to restore: which tables are detoured only matters until the next barrier
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (detoured != null) {
            detoured.clear();
        }
    }

    @Override
    public void processElement(T value, Context context, Collector<ResolvedRecord> out)
            throws Exception {
        collector.context = context;
        collector.out = out;
        generator.generate(value, collector);
    }

    @Override
    public void close() throws Exception {
        try {
            if (resolution != null) {
                resolution.close();
            }
        } finally {
            super.close();
        }
    }

    /** Routes each generated record; set up once per input record. */
    private final class RecordCollector implements Collector<DynamicRecord> {
        private Context context;
        private Collector<ResolvedRecord> out;

        @Override
        public void collect(DynamicRecord record) {
            try {
                if (settings.immediateTableUpdate()) {
                    out.collect(resolution.resolve(record));
                    return;
                }
                if (detoured.contains(record.tableIdentifier())) {
                    context.output(TABLE_UPDATES, record);
                    return;
                }
                Optional<ResolvedRecord> resolved = resolution.resolveWithoutChanges(record);
                if (resolved.isPresent()) {
                    out.collect(resolved.get());
                } else {
                    detoured.add(record.tableIdentifier());
                    context.output(TABLE_UPDATES, record);
                }
            } catch (IncompatibleSchemaException e) {
                if (!settings.incompatibleRecordsToSideOutput()) {
                    throw e;
                }
                context.output(INCOMPATIBLE, IncompatibleRecord.of(record, e));
            }
        }

        @Override
        public void close() {}
    }
}
