package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.iceberg.io.CloseableIterator;

/**
 * Turns a split into batches of converted records with positions: the serializable recipe a source
 * hands to its readers (how to read a file task, how to convert rows, how many records per batch).
 *
 * <p>Object reuse: file readers run without container reuse, so every row is a fresh object and
 * records of a batch never share state; converters create new objects too. This costs an allocation
 * per row but makes batching (many records alive at once before they are emitted) safe without a
 * copy.
 *
 * @param <T> the emitted record type
 */
@Internal
public final class IcebergReaderFunction<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Records per batch when not configured. */
    public static final int DEFAULT_BATCH_SIZE = 2048;

    private final RowDataFileTaskReader fileReader;
    private final RowDataConverter<T> converter;
    private final int batchSize;
    private final ChangelogReading changelog;
    private final MetadataAppender metadata;

    /**
     * @param fileReader reads one file task as rows of the projected schema
     * @param converter turns rows into emitted records
     * @param batchSize records per batch, at least 1
     */
    public IcebergReaderFunction(
            RowDataFileTaskReader fileReader, RowDataConverter<T> converter, int batchSize) {
        this(fileReader, converter, batchSize, null);
    }

    /**
     * @param fileReader reads one file task as rows of the projected schema
     * @param converter turns rows into emitted records
     * @param batchSize records per batch, at least 1
     * @param changelog reads the change tasks of a changelog read, or {@code null} when the read
     *     emits inserts only
     * @throws IllegalArgumentException when a changelog read's converter drops row kinds
     */
    public IcebergReaderFunction(
            RowDataFileTaskReader fileReader,
            RowDataConverter<T> converter,
            int batchSize,
            ChangelogReading changelog) {
        this(fileReader, converter, batchSize, changelog, MetadataAppender.NONE);
    }

    /**
     * @param fileReader reads one file task as rows of the projected schema
     * @param converter turns rows into emitted records; with metadata, rows of the projected schema
     *     followed by the metadata columns
     * @param batchSize records per batch, at least 1
     * @param changelog reads the change tasks of a changelog read, or {@code null} when the read
     *     emits inserts only
     * @param metadata the metadata columns appended to every row before conversion
     * @throws IllegalArgumentException when a changelog read's converter drops row kinds
     */
    public IcebergReaderFunction(
            RowDataFileTaskReader fileReader,
            RowDataConverter<T> converter,
            int batchSize,
            ChangelogReading changelog,
            MetadataAppender metadata) {
        this.fileReader = Objects.requireNonNull(fileReader, "fileReader");
        this.converter = Objects.requireNonNull(converter, "converter");
        if (batchSize < 1) {
            throw new IllegalArgumentException(
                    "The reader batch size must be at least 1, got " + batchSize);
        }
        this.batchSize = batchSize;
        if (changelog != null && !converter.keepsRowKind()) {
            throw new IllegalArgumentException(
                    "Option 'changelog-mode' = 'all' emits deletes and updates, but the output"
                            + " type "
                            + converter.getProducedType()
                            + " has no row kind ("
                            + converter.getClass().getSimpleName()
                            + "); read RowData or Row, or use 'changelog-mode' = 'insert-only'");
        }
        this.changelog = changelog;
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    /** A reader function with {@link #DEFAULT_BATCH_SIZE}. */
    public IcebergReaderFunction(RowDataFileTaskReader fileReader, RowDataConverter<T> converter) {
        this(fileReader, converter, DEFAULT_BATCH_SIZE);
    }

    /** The type of the emitted records. */
    public TypeInformation<T> producedType() {
        return converter.getProducedType();
    }

    /** Records per batch. */
    public int batchSize() {
        return batchSize;
    }

    /** Reads the split from its position, without limit; the caller closes the iterator. */
    public CloseableIterator<RecordBatch<T>> read(IcebergSourceSplit split) {
        return open(split, RecordLimiter.unlimited(), FileTaskListener.NONE);
    }

    SplitBatchIterator<T> open(
            IcebergSourceSplit split, RecordLimiter limiter, FileTaskListener listener) {
        return new SplitBatchIterator<>(
                split, fileReader, converter, batchSize, limiter, listener, changelog, metadata);
    }
}
