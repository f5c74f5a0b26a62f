package dev.icebergflink.maintenance.orphan;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Lists the files of one {@link OrphanItem.Listing} on a mapper: a deep listing goes through the
 * FileIO's prefix listing when the item allows it and the FileIO supports it (object stores list
 * fastest by prefix), anything else through the Hadoop FileSystem ({@link HadoopListing}).
 *
 * <p>Iceberg's {@code HadoopFileIO} lists by prefix with the Hadoop FileSystem's recursive listing,
 * which on the local FileSystem fails when a file is deleted while it runs; its directories are
 * walked by {@link HadoopListing} instead, the same FileSystem without that failure. (It is known
 * by its class name, so that this class loads without Hadoop on the class path.)
 */
@Internal
final class FileListing {

    private static final String HADOOP_FILE_IO = "org.apache.iceberg.hadoop.HadoopFileIO";

    private final FileIO io;
    private HadoopListing hadoop;

    FileListing(FileIO io) {
        this.io = io;
    }

    /** Hands every file of the item's directory, with its modification time, to {@code sink}. */
    void list(OrphanItem.Listing item, HadoopListing.FileSink sink) throws IOException {
        if (item.deep()
                && item.prefixListing()
                && !HADOOP_FILE_IO.equals(io.getClass().getName())
                && io instanceof SupportsPrefixOperations prefixes) {
            String directory = item.directory();
            String prefix = directory.endsWith("/") ? directory : directory + "/";
            try {
                for (FileInfo file : prefixes.listPrefix(prefix)) {
                    sink.accept(file.location(), file.createdAtMillis());
                }
            } catch (RuntimeException e) {
                // Nothing (more) at the prefix: a listing cut short lists fewer files, and fewer
                // listed files never make more orphans.
                if (!notFound(e)) {
                    throw e;
                }
            }
            return;
        }
        if (hadoop == null) {
            hadoop = new HadoopListing(io);
        }
        hadoop.files(item.directory(), item.deep(), sink);
    }

    /** Whether a listing failed only because there was nothing at the prefix. */
    private static boolean notFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FileNotFoundException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
