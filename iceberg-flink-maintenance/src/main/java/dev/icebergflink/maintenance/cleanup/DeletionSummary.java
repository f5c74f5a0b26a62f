package dev.icebergflink.maintenance.cleanup;

import dev.icebergflink.maintenance.task.TaskFinisher;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of expiration and orphan deletion: sums the deleting workers' counts. Nothing is
 * committed here: expiration committed while planning, and orphans are not in the metadata.
 */
@Internal
public final class DeletionSummary implements TaskFinisher {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DeletionSummary.class);

    private final String taskName;

    public DeletionSummary(String taskName) {
        this.taskName = taskName;
    }

    @Override
    public Outcome finish(byte[] header, List<byte[]> results) throws Exception {
        DeletionCountSerializer serializer = new DeletionCountSerializer();
        long deleted = 0;
        long failed = 0;
        for (byte[] result : results) {
            DeletionCountSerializer.Count count =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, result);
            deleted += count.deleted();
            failed += count.failed();
        }
        if (failed > 0) {
            LOG.warn(
                    "{}: {} files could not be deleted; a later orphan deletion removes them",
                    taskName,
                    failed);
        }
        return new Outcome(0L, deleted);
    }
}
