package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a task's {@link TaskMapper} on each work item and puts each record in its bucket. A failing
 * item does not fail the job: it sends its error to every bucket, so that no bucket acts on the
 * run. Records keep the item's timestamp (the run's trigger) and the planner's watermarks pass
 * through.
 */
@Internal
public final class MappingFunction extends ProcessFunction<byte[], KeyedRecord> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MappingFunction.class);

    private final TaskMapper mapper;
    private final int buckets;

    /**
     * @param mapper the task's mapper
     * @param buckets how many buckets the records are spread over
     */
    public MappingFunction(TaskMapper mapper, int buckets) {
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be positive, got " + buckets);
        }
        this.mapper = mapper;
        this.buckets = buckets;
    }

    /** The bucket of a record's hash, out of {@code buckets}. */
    public static int bucketOf(int hash, int buckets) {
        return Math.floorMod(hash, buckets);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        TaskInfo task = getRuntimeContext().getTaskInfo();
        mapper.open(task.getIndexOfThisSubtask(), task.getAttemptNumber());
    }

    @Override
    public void processElement(byte[] item, Context context, Collector<KeyedRecord> out) {
        try {
            mapper.process(
                    item,
                    (hash, record) ->
                            out.collect(new KeyedRecord(bucketOf(hash, buckets), record, null)));
        } catch (Exception e) {
            LOG.warn("A work item failed; the run is given up", e);
            String error = TaskErrors.describe(e);
            for (int bucket = 0; bucket < buckets; bucket++) {
                out.collect(new KeyedRecord(bucket, new byte[0], error));
            }
        }
    }

    @Override
    public void close() throws Exception {
        mapper.close();
    }
}
