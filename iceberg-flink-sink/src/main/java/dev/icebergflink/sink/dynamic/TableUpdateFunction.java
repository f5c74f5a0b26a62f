package dev.icebergflink.sink.dynamic;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Makes the catalog changes records need (create the table, evolve its schema, replace its spec,
 * create the branch) and passes the records on to the writers.
 *
 * <p>It runs keyed by table, so one instance owns all changes of a table: the parallel instances of
 * the generator never race each other in the catalog. It keeps no state; a record whose change was
 * committed before a failure finds the table ready when it is replayed.
 */
@Internal
final class TableUpdateFunction
        extends KeyedProcessFunction<String, DynamicRecord, ResolvedRecord> {

    private static final long serialVersionUID = 1L;

    private final DynamicSinkSettings settings;

    private transient DynamicResolution resolution;

    TableUpdateFunction(DynamicSinkSettings settings) {
        this.settings = settings;
    }

    /** The key of a record: its table, the same in every JVM. */
    static String tableKey(DynamicRecord record) {
        return record.tableIdentifier().toString();
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        super.open(openContext);
        resolution = new DynamicResolution(settings);
    }

    @Override
    public void processElement(
            DynamicRecord record, Context context, Collector<ResolvedRecord> out) {
        try {
            out.collect(resolution.resolve(record));
        } catch (IncompatibleSchemaException e) {
            if (!settings.incompatibleRecordsToSideOutput()) {
                throw e;
            }
            context.output(DynamicRecordProcessor.INCOMPATIBLE, IncompatibleRecord.of(record, e));
        }
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
}
