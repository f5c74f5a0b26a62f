package dev.icebergflink.maintenance.orphan;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.iceberg.hadoop.HadoopConfigurable;
import org.apache.iceberg.io.FileIO;

/**
 * Listing through the Hadoop {@link FileSystem} of a location: the only listing that knows
 * directories, which the planner needs to split a location into parts, and the fallback listing of
 * files when the FileIO cannot list by prefix.
 *
 * <p>All Hadoop use of orphan detection is here, so that a job without Hadoop on its class path
 * fails only when it needs this class (and then falls back to prefix listing where it can).
 */
@Internal
final class HadoopListing {

    /** One entry of a non-recursive listing. */
    record Entry(String name, boolean directory) {}

    /** Receives listed files. */
    interface FileSink {
        void accept(String location, long modifiedMillis);
    }

    private final Configuration conf;

    /** A listing with the Hadoop configuration of {@code io}, or the default one. */
    HadoopListing(FileIO io) {
        Configuration known = null;
        if (io instanceof HadoopConfigurable configurable) {
            try {
                known = configurable.getConf();
            } catch (UnsupportedOperationException e) {
                known = null;
            }
        }
        this.conf = known != null ? known : new Configuration();
    }

    /**
     * The entries directly in {@code directory}, or null when there are more than {@code limit}; an
     * empty list when the directory does not exist.
     */
    List<Entry> children(String directory, int limit) throws IOException {
        Path path = new Path(directory);
        List<Entry> entries = new ArrayList<>();
        try {
            RemoteIterator<FileStatus> statuses = path.getFileSystem(conf).listStatusIterator(path);
            while (statuses.hasNext()) {
                if (entries.size() >= limit) {
                    return null;
                }
                FileStatus status = statuses.next();
                entries.add(new Entry(status.getPath().getName(), status.isDirectory()));
            }
        } catch (FileNotFoundException e) {
            return List.of();
        }
        return entries;
    }

    /**
     * Lists the files of {@code directory}: all below it when {@code deep}, else only its own. A
     * directory that does not exist, or vanishes while it is walked, has no files.
     *
     * <p>A deep listing walks directory by directory rather than through the FileSystem's recursive
     * listing: the local FileSystem's recursive listing fails on a file deleted while it runs
     * (which a streaming writer's temporary files are), a walk just does not see it.
     */
    void files(String directory, boolean deep, FileSink sink) throws IOException {
        Path start = new Path(directory);
        FileSystem fs = start.getFileSystem(conf);
        Deque<Path> pending = new ArrayDeque<>();
        pending.push(start);
        while (!pending.isEmpty()) {
            Path current = pending.pop();
            try {
                RemoteIterator<FileStatus> statuses = fs.listStatusIterator(current);
                while (statuses.hasNext()) {
                    FileStatus status = statuses.next();
                    if (status.isFile()) {
                        sink.accept(status.getPath().toString(), status.getModificationTime());
                    } else if (deep && status.isDirectory()) {
                        pending.push(status.getPath());
                    }
                }
            } catch (FileNotFoundException e) {
                // Nothing to list here: the directory is gone (or never was).
            }
        }
    }
}
