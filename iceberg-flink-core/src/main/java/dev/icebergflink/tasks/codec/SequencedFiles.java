package dev.icebergflink.tasks.codec;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.StructLike;

/**
 * Views of data and delete files with their data and file sequence numbers restored.
 *
 * <p>It exists because Iceberg's JSON form of a content file ({@code ContentFileParser}), which
 * {@link ContentFileCodec} uses, does not carry sequence numbers, while split assignment by
 * sequence number and delete application need them after a restore. Everything else is delegated.
 */
@Internal
public final class SequencedFiles {

    private SequencedFiles() {}

    /** {@code file} with the given sequence numbers (null when unknown). */
    public static DataFile dataFile(
            DataFile file, Long dataSequenceNumber, Long fileSequenceNumber) {
        return new SequencedDataFile(file, dataSequenceNumber, fileSequenceNumber);
    }

    /** {@code file} with the given sequence numbers (null when unknown). */
    public static DeleteFile deleteFile(
            DeleteFile file, Long dataSequenceNumber, Long fileSequenceNumber) {
        return new SequencedDeleteFile(file, dataSequenceNumber, fileSequenceNumber);
    }

    /** Delegates every {@link ContentFile} method but the sequence numbers. */
    private abstract static class Forwarding<F extends ContentFile<F>> implements ContentFile<F> {
        final F delegate;
        final Long dataSequenceNumber;
        final Long fileSequenceNumber;

        Forwarding(F delegate, Long dataSequenceNumber, Long fileSequenceNumber) {
            this.delegate = delegate;
            this.dataSequenceNumber = dataSequenceNumber;
            this.fileSequenceNumber = fileSequenceNumber;
        }

        abstract F wrap(F file);

        @Override
        public Long dataSequenceNumber() {
            return dataSequenceNumber;
        }

        @Override
        public Long fileSequenceNumber() {
            return fileSequenceNumber;
        }

        @Override
        public String manifestLocation() {
            return delegate.manifestLocation();
        }

        @Override
        public Long pos() {
            return delegate.pos();
        }

        @Override
        public int specId() {
            return delegate.specId();
        }

        @Override
        public FileContent content() {
            return delegate.content();
        }

        @Override
        @SuppressWarnings("deprecation")
        public CharSequence path() {
            return delegate.path();
        }

        @Override
        public String location() {
            return delegate.location();
        }

        @Override
        public FileFormat format() {
            return delegate.format();
        }

        @Override
        public StructLike partition() {
            return delegate.partition();
        }

        @Override
        public long recordCount() {
            return delegate.recordCount();
        }

        @Override
        public long fileSizeInBytes() {
            return delegate.fileSizeInBytes();
        }

        @Override
        public Map<Integer, Long> columnSizes() {
            return delegate.columnSizes();
        }

        @Override
        public Map<Integer, Long> valueCounts() {
            return delegate.valueCounts();
        }

        @Override
        public Map<Integer, Long> nullValueCounts() {
            return delegate.nullValueCounts();
        }

        @Override
        public Map<Integer, Long> nanValueCounts() {
            return delegate.nanValueCounts();
        }

        @Override
        public Map<Integer, ByteBuffer> lowerBounds() {
            return delegate.lowerBounds();
        }

        @Override
        public Map<Integer, ByteBuffer> upperBounds() {
            return delegate.upperBounds();
        }

        @Override
        public ByteBuffer keyMetadata() {
            return delegate.keyMetadata();
        }

        @Override
        public List<Long> splitOffsets() {
            return delegate.splitOffsets();
        }

        @Override
        public List<Integer> equalityFieldIds() {
            return delegate.equalityFieldIds();
        }

        @Override
        public Integer sortOrderId() {
            return delegate.sortOrderId();
        }

        @Override
        public Long firstRowId() {
            return delegate.firstRowId();
        }

        @Override
        public F copy() {
            return wrap(delegate.copy());
        }

        @Override
        public F copyWithoutStats() {
            return wrap(delegate.copyWithoutStats());
        }

        @Override
        public F copyWithStats(Set<Integer> requestedColumnIds) {
            return wrap(delegate.copyWithStats(requestedColumnIds));
        }

        @Override
        public F copy(boolean withStats) {
            return wrap(delegate.copy(withStats));
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }

    private static final class SequencedDataFile extends Forwarding<DataFile> implements DataFile {
        SequencedDataFile(DataFile delegate, Long dataSequence, Long fileSequence) {
            super(delegate, dataSequence, fileSequence);
        }

        @Override
        DataFile wrap(DataFile file) {
            return new SequencedDataFile(file, dataSequenceNumber, fileSequenceNumber);
        }

        @Override
        public FileContent content() {
            return delegate.content();
        }

        @Override
        public List<Integer> equalityFieldIds() {
            return delegate.equalityFieldIds();
        }
    }

    private static final class SequencedDeleteFile extends Forwarding<DeleteFile>
            implements DeleteFile {
        SequencedDeleteFile(DeleteFile delegate, Long dataSequence, Long fileSequence) {
            super(delegate, dataSequence, fileSequence);
        }

        @Override
        DeleteFile wrap(DeleteFile file) {
            return new SequencedDeleteFile(file, dataSequenceNumber, fileSequenceNumber);
        }

        @Override
        public List<Long> splitOffsets() {
            return delegate.splitOffsets();
        }

        @Override
        public String referencedDataFile() {
            return delegate.referencedDataFile();
        }

        @Override
        public Long contentOffset() {
            return delegate.contentOffset();
        }

        @Override
        public Long contentSizeInBytes() {
            return delegate.contentSizeInBytes();
        }
    }
}
