package dev.icebergflink.data;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The location of every file one writer opened: data, equality-delete, position-delete and
 * deletion-vector files, finished or not.
 *
 * <p>It exists so that a writer whose completion fails (a file that cannot be closed, deletes that
 * cannot be written) or that is aborted removes every file it wrote: none of them will ever be
 * committed. Iceberg's rolling writers keep the files they rolled to themselves until they close
 * cleanly, so after a failure only the files' own record here names them all. Files are recorded
 * when their writer is created, through {@link #recording} and {@link #newOutputFile}.
 *
 * <p>Used by the sink's task writers and by the maintenance rewrite. Not thread-safe; one instance
 * serves one writer.
 */
@Internal
public final class OpenedFiles {

    private final List<String> locations = new ArrayList<>();

    /** A factory that creates the writers of {@code factory} and records each one's file. */
    public FileWriterFactory<RowData> recording(FileWriterFactory<RowData> factory) {
        return new Recording(factory);
    }

    /** A new file of {@code factory} (for deletion vectors), recorded. */
    public OutputFile newOutputFile(OutputFileFactory factory) {
        return record(factory.newOutputFile()).encryptingOutputFile();
    }

    /** The locations recorded so far, in the order the files were opened (tests). */
    public List<String> locations() {
        return List.copyOf(locations);
    }

    /**
     * Deletes every recorded file through {@code io}, best effort: a file that cannot be deleted is
     * added to {@code failure} (when given) as a suppressed exception, and the others are still
     * deleted. A file that was never created is no error.
     */
    public void deleteAll(FileIO io, Throwable failure) {
        for (String location : locations) {
            try {
                io.deleteFile(location);
            } catch (RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                }
            }
        }
        locations.clear();
    }

    private EncryptedOutputFile record(EncryptedOutputFile file) {
        locations.add(file.encryptingOutputFile().location());
        return file;
    }

    /** Records the file of each writer it creates, then delegates. */
    private final class Recording implements FileWriterFactory<RowData> {
        private final FileWriterFactory<RowData> delegate;

        private Recording(FileWriterFactory<RowData> delegate) {
            this.delegate = delegate;
        }

        @Override
        public DataWriter<RowData> newDataWriter(
                EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
            return delegate.newDataWriter(record(file), spec, partition);
        }

        @Override
        public EqualityDeleteWriter<RowData> newEqualityDeleteWriter(
                EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
            return delegate.newEqualityDeleteWriter(record(file), spec, partition);
        }

        @Override
        public PositionDeleteWriter<RowData> newPositionDeleteWriter(
                EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
            return delegate.newPositionDeleteWriter(record(file), spec, partition);
        }
    }
}
