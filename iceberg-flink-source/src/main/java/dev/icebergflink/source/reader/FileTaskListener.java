package dev.icebergflink.source.reader;

import org.apache.iceberg.FileScanTask;

/** Told when a file task of a split has been read to its end, for metrics. */
@FunctionalInterface
interface FileTaskListener {

    /** Ignores every event. */
    FileTaskListener NONE = task -> {};

    void fileTaskFinished(FileScanTask task);
}
