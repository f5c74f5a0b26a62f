package dev.icebergflink.maintenance.cleanup;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskWorker;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parallel step of expiration and orphan deletion: deletes one batch of files with the table's
 * {@link FileIO}, in one bulk request when the FileIO supports it (object stores), else one by one.
 *
 * <p>A file that cannot be deleted is counted and logged, never fatal: it is no longer referenced,
 * so a later orphan deletion removes it.
 */
@Internal
public final class DeleteFilesWork implements TaskWorker {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DeleteFilesWork.class);

    private final TableLoader loader;

    private transient FileIO io;

    public DeleteFilesWork(TableLoader loader) {
        this.loader = loader;
    }

    @Override
    public void open(int subtask, int attempt) {
        loader.open();
    }

    @Override
    public byte[] process(byte[] item) throws Exception {
        if (io == null) {
            io = loader.loadTable().io();
        }
        List<String> paths =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        new PathBatchSerializer(), item);
        return SimpleVersionedSerialization.writeVersionAndSerialize(
                new DeletionCountSerializer(), delete(io, paths));
    }

    /**
     * Deletes {@code paths} with {@code io}, in one bulk request when it supports that; a file that
     * cannot be deleted is counted and logged, never thrown.
     */
    public static DeletionCountSerializer.Count delete(FileIO io, List<String> paths) {
        long failed = 0;
        if (io instanceof SupportsBulkOperations bulk) {
            try {
                bulk.deleteFiles(paths);
            } catch (BulkDeletionFailureException e) {
                failed = e.numberFailedObjects();
                LOG.warn("{} of {} files could not be deleted", failed, paths.size(), e);
            }
        } else {
            for (String path : paths) {
                try {
                    io.deleteFile(path);
                } catch (RuntimeException e) {
                    failed++;
                    LOG.warn("Cannot delete {}", path, e);
                }
            }
        }
        return new DeletionCountSerializer.Count(paths.size() - failed, failed);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
