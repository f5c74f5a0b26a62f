package dev.icebergflink.sink.dynamic;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The dynamic sink's first operator: runs the user's {@link DynamicRecordGenerator} and resolves
 * each record it emits against the table as cached.
 *
 * <p>A record whose table takes it as it is goes straight on to the writers. A record whose table
 * is missing or needs a schema, spec or branch change goes to {@link #TABLE_UPDATES}, which the
 * sink keys by table into {@link TableUpdateFunction}, so that one operator instance makes every
 * change of a table and writers never race each other in the catalog. With {@code
 * immediateTableUpdate} this operator makes the changes itself (no extra hop; concurrent changes by
 * its parallel instances converge, see {@link TableUpdater}).
 *
 * @param <T> the input record type
 */
@Internal
final class DynamicRecordProcessor<T> extends ProcessFunction<T, ResolvedRecord> {

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
                resolution
                        .resolveWithoutChanges(record)
                        .ifPresentOrElse(out::collect, () -> context.output(TABLE_UPDATES, record));
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
