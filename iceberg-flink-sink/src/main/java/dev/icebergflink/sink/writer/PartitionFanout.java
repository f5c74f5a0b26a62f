package dev.icebergflink.sink.writer;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.io.FileWriter;
import org.apache.iceberg.util.StructLikeMap;

/**
 * Keeps one open rolling file writer per partition of one spec (a fanout: rows need not arrive
 * sorted by partition), or a single writer for an unpartitioned spec.
 *
 * <p>It exists because Iceberg core's {@code org.apache.iceberg.io.FanoutWriter} cannot be built
 * on: the class is package-private (Iceberg 1.11), and its public subclasses ({@code
 * FanoutDataWriter}, the position-delete fanouts) write through a {@code FileWriterFactory} and
 * hide their per-partition writers. The sink needs what they hide: equality-delete files take the
 * same per-partition fanout as data files, {@link PartitionedRowWriter} keeps a partition's open
 * writer ({@link #writerFor}) to write more rows into it, and the bounded-memory upsert test checks
 * that only one writer per partition is open ({@link #openWriters}). Partition keys are copied
 * before they are kept, so callers may reuse their key object.
 *
 * @param <T> the rows written
 * @param <R> the result of one file writer
 * @param <W> the file writers
 */
final class PartitionFanout<T, R, W extends FileWriter<T, R>> implements Closeable {

    private final PartitionSpec spec;
    private final BiFunction<PartitionSpec, StructLike, W> newWriter;
    private final StructLikeMap<W> writers;
    private final List<R> results = new ArrayList<>();
    private W unpartitionedWriter;
    private boolean closed;

    PartitionFanout(PartitionSpec spec, BiFunction<PartitionSpec, StructLike, W> newWriter) {
        this.spec = spec;
        this.newWriter = newWriter;
        this.writers = spec.isUnpartitioned() ? null : StructLikeMap.create(spec.partitionType());
    }

    /** Writes {@code row} into the file of {@code partition} (ignored when unpartitioned). */
    void write(T row, StructLike partition) {
        writerFor(partition).write(row);
    }

    /**
     * The open writer of {@code partition} (ignored when unpartitioned), created when the partition
     * is new; callers may keep it to write more rows of the partition until this fanout closes.
     */
    W writerFor(StructLike partition) {
        if (writers == null) {
            if (unpartitionedWriter == null) {
                unpartitionedWriter = newWriter.apply(spec, null);
            }
            return unpartitionedWriter;
        }
        W writer = writers.get(partition);
        if (writer == null) {
            StructLike copy = copy(partition);
            writer = newWriter.apply(spec, copy);
            writers.put(copy, writer);
        }
        return writer;
    }

    /**
     * The number of open file writers: one per partition seen, never one per row or key (tests of
     * the bounded-memory upsert assert on it).
     */
    int openWriters() {
        return (unpartitionedWriter == null ? 0 : 1) + (writers == null ? 0 : writers.size());
    }

    /** Closes every open writer and returns their results; idempotent. */
    List<R> results() throws IOException {
        close();
        return results;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        List<FileWriter<T, R>> open = new ArrayList<>();
        if (unpartitionedWriter != null) {
            open.add(unpartitionedWriter);
        }
        if (writers != null) {
            open.addAll(writers.values());
        }
        for (FileWriter<T, R> writer : open) {
            try {
                writer.close();
                results.add(writer.result());
            } catch (IOException | RuntimeException e) {
                if (failure == null) {
                    failure = e instanceof IOException io ? io : new IOException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static StructLike copy(StructLike partition) {
        if (partition instanceof org.apache.iceberg.PartitionKey key) {
            return key.copy();
        }
        Object[] values = new Object[partition.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = partition.get(i, Object.class);
        }
        return new CopiedPartition(values);
    }

    /** A detached copy of partition values. */
    private record CopiedPartition(Object[] values) implements StructLike {
        @Override
        public int size() {
            return values.length;
        }

        @Override
        public <V> V get(int pos, Class<V> javaClass) {
            return javaClass.cast(values[pos]);
        }

        @Override
        public <V> void set(int pos, V value) {
            values[pos] = value;
        }
    }
}
