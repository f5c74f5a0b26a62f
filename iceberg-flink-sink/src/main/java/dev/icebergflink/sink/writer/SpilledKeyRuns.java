package dev.icebergflink.sink.writer;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The sorted runs {@link SupersededRows} spills to disk, and their merge.
 *
 * <p>It exists to keep the file side of {@link SupersededRows} (run files, their format, the k-way
 * merge and the clean-up) apart from its in-memory buffer and sort. A run holds entries in (key
 * hash, key bytes, arrival) order; merging runs keeps that order, ties between runs going to the
 * earlier run, so arrival order holds across runs. Run files stay listed until merged, and {@link
 * #close} removes the listed ones (also after a failed merge).
 */
final class SpilledKeyRuns implements Closeable {

    /** Runs that are merged into one as soon as there are this many. */
    static final int MAX_MERGED_RUNS = 64;

    private static final int SPILL_BUFFER = 64 * 1024;

    private final Path spillDirectory;
    private final List<Path> runs = new ArrayList<>();
    private int spilledRuns;
    private long comparisons;

    /**
     * @param spillDirectory where runs are spilled to; created when missing
     */
    SpilledKeyRuns(Path spillDirectory) {
        this.spillDirectory = spillDirectory;
    }

    /** The directory runs are spilled to, for messages. */
    Path directory() {
        return spillDirectory;
    }

    /** Whether no run is listed. */
    boolean isEmpty() {
        return runs.isEmpty();
    }

    /** Runs spilled so far, including those already merged and removed (tests). */
    int spilledRuns() {
        return spilledRuns;
    }

    /** Comparisons of two keys' bytes the merges made so far (tests of the work bound). */
    long keyComparisons() {
        return comparisons;
    }

    /** A new run, listed at once; the caller writes it in run order and closes it. */
    KeyEntrySink.RunWriter newRun() throws IOException {
        Files.createDirectories(spillDirectory);
        Path run = Files.createTempFile(spillDirectory, "iceberg-upsert-keys-", ".run");
        runs.add(run);
        spilledRuns++;
        return new KeyEntrySink.RunWriter(run, SPILL_BUFFER);
    }

    /**
     * Merges the runs into one when there are {@link #MAX_MERGED_RUNS}, keeping the number of open
     * files of the final merge bounded: the merged run takes the place of the runs it merged, which
     * all came before the runs still to come.
     */
    void compactIfMany() throws IOException {
        if (runs.size() < MAX_MERGED_RUNS) {
            return;
        }
        List<Path> merged = new ArrayList<>(runs);
        try (KeyEntrySink.RunWriter out = newRun()) {
            merge(merged, out);
        }
        runs.removeAll(merged);
    }

    /** Merges every listed run into {@code out}, then removes them. */
    void mergeAll(KeyEntrySink out) throws IOException {
        merge(new ArrayList<>(runs), out);
        runs.clear();
    }

    /**
     * Merges {@code merged} by key hash, key bytes, then run: every key's entries reach {@code out}
     * one after the other, in arrival order. Removes the merged runs once merged.
     */
    private void merge(List<Path> merged, KeyEntrySink out) throws IOException {
        PriorityQueue<RunReader> heads =
                new PriorityQueue<>(Math.max(1, merged.size()), this::compareHeads);
        List<RunReader> readers = new ArrayList<>();
        try {
            for (int run = 0; run < merged.size(); run++) {
                RunReader reader = new RunReader(merged.get(run), run, SPILL_BUFFER);
                readers.add(reader);
                if (reader.next()) {
                    heads.add(reader);
                }
            }
            while (!heads.isEmpty()) {
                RunReader head = heads.poll();
                out.accept(head.hash, head.key, 0, head.keyLength, head.location);
                if (head.next()) {
                    heads.add(head);
                }
            }
        } finally {
            for (RunReader reader : readers) {
                reader.close();
            }
        }
        for (Path run : merged) {
            Files.deleteIfExists(run);
        }
    }

    private int compareHeads(RunReader a, RunReader b) {
        if (a.hash != b.hash) {
            return Integer.compare(a.hash, b.hash);
        }
        comparisons++;
        int order = Arrays.compareUnsigned(a.key, 0, a.keyLength, b.key, 0, b.keyLength);
        return order != 0 ? order : Integer.compare(a.run, b.run);
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Path run : runs) {
            try {
                Files.deleteIfExists(run);
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        runs.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Reads one spilled run, entry by entry. */
    private static final class RunReader implements Closeable {
        private final DataInputStream in;
        private final int run;
        private int hash;
        private byte[] key = new byte[16];
        private int keyLength;
        private long location;

        RunReader(Path path, int run, int bufferSize) throws IOException {
            this.in =
                    new DataInputStream(
                            new BufferedInputStream(Files.newInputStream(path), bufferSize));
            this.run = run;
        }

        boolean next() throws IOException {
            try {
                hash = in.readInt();
            } catch (EOFException end) {
                return false;
            }
            keyLength = in.readInt();
            if (key.length < keyLength) {
                key = new byte[Math.max(keyLength, key.length * 2)];
            }
            in.readFully(key, 0, keyLength);
            location = in.readLong();
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
