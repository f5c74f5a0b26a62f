package dev.icebergflink.sink.writer;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Finds the rows a delta writer wrote that a later change of the same key replaced, in bounded
 * memory.
 *
 * <p>It exists so that a BATCH upsert (or keyed changelog) needs no sort of whole rows by key
 * before the writer: the writer writes every row where it arrives and records one small entry per
 * change here, the key's bytes and, for a written row, its location. At the end the entries are
 * grouped by key, in arrival order: every written row that another change of its key followed is
 * superseded, and the writer deletes it by position. A change here is an insert ({@link #written})
 * or a retraction ({@link #retracted}).
 *
 * <p>Entries are buffered in memory up to a budget; then they are sorted by key hash, keys of one
 * hash by their bytes, and each key's entries in arrival order, and spilled as one run to a file in
 * the spill directory. At the end the runs are merged in the same order (ties between runs go to
 * the earlier run, so arrival order holds across runs): every key's entries then come one after the
 * other, and grouping them compares each entry with the one before only. Many keys that share one
 * hash (a hash is 32 bits; keys can be made to collide on purpose) therefore cost a comparison sort
 * of those keys, never a comparison of every pair, and the grouping holds one key, not every key of
 * a hash. The buffers' allocated memory (not only the part in use) stays within the budget, plus
 * the merge's read buffers at the end; spill files stay listed until merged, and are removed when
 * the merge is done and on {@link #close} (also after a failed merge).
 *
 * <p>Not thread-safe; one instance serves one writer and one checkpoint.
 */
final class SupersededRows implements Closeable {

    /** The location recorded for a retraction: it wrote no row. */
    private static final long RETRACTION = -1L;

    /**
     * Bytes of bookkeeping per entry besides its key and location: offset, sort key and the sort
     * key's place in the radix sort's second array.
     */
    private static final int ENTRY_OVERHEAD = Integer.BYTES + 2 * Long.BYTES;

    /** Groups of entries of one hash up to this size are sorted by insertion. */
    private static final int INSERTION_SORT_MAX = 16;

    private static final int INITIAL_ENTRIES = 1024;

    /** Arena bytes per entry to start with: a key of 8 bytes and its location. */
    private static final int INITIAL_ENTRY_BYTES = 16;

    /** Runs that are merged into one as soon as there are this many. */
    static final int MAX_MERGED_RUNS = SpilledKeyRuns.MAX_MERGED_RUNS;

    private final long memoryBudget;
    private final SpilledKeyRuns runs;

    private byte[] arena;
    private int arenaUsed;
    // entry i is arena[offsets[i], offsets[i + 1]): its key bytes, then its location (8 bytes)
    private int[] offsets;
    // (key hash << 32 | entry index): sorting these orders entries by hash, then arrival
    private long[] sortKeys;
    private long[] sortScratch = new long[0];
    private int count;
    private long recorded;
    private long comparisons;
    private long largestGroupBytes;
    private boolean resolved;

    /**
     * @param memoryBudget bytes of entries to buffer before spilling a run (at least 1 KiB)
     * @param spillDirectory where runs are spilled to; created when missing
     */
    SupersededRows(long memoryBudget, Path spillDirectory) {
        if (memoryBudget < 1024) {
            throw new IllegalArgumentException(
                    "The memory budget must be at least 1 KiB, not " + memoryBudget);
        }
        this.memoryBudget = memoryBudget;
        this.runs = new SpilledKeyRuns(spillDirectory);
        // start small, and within the budget: the buffers grow as entries come
        int entries =
                (int)
                        Math.max(
                                1,
                                Math.min(
                                        INITIAL_ENTRIES,
                                        memoryBudget / (ENTRY_OVERHEAD + INITIAL_ENTRY_BYTES) / 2));
        this.arena = new byte[entries * INITIAL_ENTRY_BYTES];
        this.offsets = new int[entries + 1];
        this.sortKeys = new long[entries];
    }

    /**
     * Records that the row with key {@code key[0, length)} was written at {@code location} (any
     * value of at least 0 that names the row to the caller).
     */
    void written(byte[] key, int length, long location) {
        if (location < 0) {
            throw new IllegalArgumentException("A row location must not be negative: " + location);
        }
        record(key, length, location);
    }

    /** Records a change of key {@code key[0, length)} that wrote no row (a delete). */
    void retracted(byte[] key, int length) {
        record(key, length, RETRACTION);
    }

    /** Entries recorded so far (tests). */
    long recorded() {
        return recorded;
    }

    /** Bytes of the buffers currently allocated for entries (tests of the memory bound). */
    long bufferBytes() {
        return arena.length
                + (long) Integer.BYTES * offsets.length
                + (long) Long.BYTES * (sortKeys.length + sortScratch.length);
    }

    /** Comparisons of two keys' bytes so far (tests of the work bound). */
    long keyComparisons() {
        return comparisons + runs.keyComparisons();
    }

    /** The most bytes of keys the grouping of {@link #resolve} held at once (tests). */
    long largestGroupBytes() {
        return largestGroupBytes;
    }

    /** Runs spilled so far, including those already merged and removed (tests). */
    int spilledRuns() {
        return runs.spilledRuns();
    }

    /**
     * Hands every superseded row's location to {@code superseded}, in no particular order; call
     * once, after the last change.
     */
    void resolve(LongConsumer superseded) throws IOException {
        if (resolved) {
            throw new IllegalStateException("Superseded rows were already resolved");
        }
        resolved = true;
        KeyGroup group = new KeyGroup(superseded);
        if (runs.isEmpty()) {
            sortEntries();
            int first = 0;
            while (first < count) {
                int hash = (int) (sortKeys[first] >>> 32);
                int end = first + 1;
                while (end < count && (int) (sortKeys[end] >>> 32) == hash) {
                    end++;
                }
                // an entry alone with its hash has no other change of its key: skip its bytes
                for (int i = end - first > 1 ? first : end; i < end; i++) {
                    int entry = (int) sortKeys[i];
                    int start = offsets[entry];
                    int keyLength = offsets[entry + 1] - start - Long.BYTES;
                    group.accept(hash, arena, start, keyLength, readLong(arena, start + keyLength));
                }
                first = end;
            }
        } else {
            if (count > 0) {
                spill();
            }
            // the runs stay listed until merged: if the merge fails, close() removes them
            runs.mergeAll(group);
        }
        release();
    }

    @Override
    public void close() throws IOException {
        release();
        runs.close();
    }

    private void record(byte[] key, int length, long location) {
        if (resolved) {
            throw new IllegalStateException("Superseded rows were already resolved");
        }
        int entryBytes = length + Long.BYTES;
        if (!makeRoom(entryBytes, false)) {
            if (count > 0) {
                spillUnchecked();
            }
            if (!makeRoom(entryBytes, false)) {
                // a key too large for the budget on its own: buffer it alone, beyond the budget
                makeRoom(entryBytes, true);
            }
        }
        int start = arenaUsed;
        System.arraycopy(key, 0, arena, start, length);
        writeLong(arena, start + length, location);
        arenaUsed = start + entryBytes;
        sortKeys[count] = ((long) hash(key, length) << 32) | count;
        count++;
        offsets[count] = arenaUsed;
        recorded++;
    }

    /**
     * Bytes the buffers take once allocated for {@code entries} entries and an arena of {@code
     * arenaBytes}, counting the radix sort's second array (allocated at the first sort).
     */
    private static long allocatedBytes(long arenaBytes, long entries) {
        return arenaBytes + entries * ENTRY_OVERHEAD + Integer.BYTES;
    }

    /**
     * Makes room for one more entry of {@code entryBytes}, growing the buffers by doubling but
     * never beyond the memory budget (unless {@code beyondBudget}), so that what the buffers hold
     * allocated, not only what they use, stays within the budget.
     *
     * @return whether there is room; when not, the caller spills and tries again
     */
    private boolean makeRoom(int entryBytes, boolean beyondBudget) {
        long arenaNeeded = (long) arenaUsed + entryBytes;
        boolean growArena = arenaNeeded > arena.length;
        boolean growEntries = count == sortKeys.length;
        if (!growArena && !growEntries) {
            return true;
        }
        long arenaBytes = growArena ? Math.max(2L * arena.length, arenaNeeded) : arena.length;
        long entries = growEntries ? Math.max(2L * sortKeys.length, count + 1L) : sortKeys.length;
        if (beyondBudget) {
            // only what this one entry needs
            arenaBytes = Math.max(arena.length, arenaNeeded);
            entries = Math.max(sortKeys.length, count + 1L);
        } else if (allocatedBytes(arenaBytes, entries) > memoryBudget) {
            // the last growth before a spill: split the budget between the arena and the entry
            // arrays by the average entry so far, so that both fill up at about the same entry
            double averageEntry = (double) arenaNeeded / (count + 1);
            long fit = (long) ((memoryBudget - Integer.BYTES) / (averageEntry + ENTRY_OVERHEAD));
            if (fit - count < Math.max(1, fit / 8)) {
                // too little room would be won for the copy: spill instead
                return false;
            }
            arenaBytes = Math.max(arenaNeeded, (long) (fit * averageEntry));
            entries = fit;
            if (allocatedBytes(arenaBytes, entries) > memoryBudget) {
                return false;
            }
            growArena = arenaBytes != arena.length;
            growEntries = entries != sortKeys.length;
        }
        if (arenaBytes > Integer.MAX_VALUE - 16 || entries > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException(
                    "Upsert key entries outgrew one buffer; lower the memory budget");
        }
        if (growArena) {
            arena = Arrays.copyOf(arena, (int) arenaBytes);
        }
        if (growEntries) {
            sortKeys = Arrays.copyOf(sortKeys, (int) entries);
            offsets = Arrays.copyOf(offsets, (int) entries + 1);
            // the sort's second array is allocated again, to the new length, at the next sort
            sortScratch = new long[0];
        }
        return true;
    }

    private void spillUnchecked() {
        try {
            spill();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Could not spill upsert keys to the directory " + runs.directory(), e);
        }
    }

    /** Sorts the buffered entries and writes them as one run; empties the buffer. */
    private void spill() throws IOException {
        sortEntries();
        try (KeyEntrySink.RunWriter out = runs.newRun()) {
            for (int i = 0; i < count; i++) {
                long sortKey = sortKeys[i];
                int entry = (int) sortKey;
                int start = offsets[entry];
                int keyLength = offsets[entry + 1] - start - Long.BYTES;
                out.accept(
                        (int) (sortKey >>> 32),
                        arena,
                        start,
                        keyLength,
                        readLong(arena, start + keyLength));
            }
        }
        count = 0;
        arenaUsed = 0;
        // the runs stay listed until merged, so that close() removes them after a failure
        runs.compactIfMany();
    }

    /**
     * Orders the buffered entries by key hash, the keys of one hash by their bytes and each key's
     * entries by arrival: the order of a run.
     */
    private void sortEntries() {
        sortByHash();
        int first = 0;
        while (first < count) {
            int hash = (int) (sortKeys[first] >>> 32);
            int end = first + 1;
            while (end < count && (int) (sortKeys[end] >>> 32) == hash) {
                end++;
            }
            if (end - first > 1) {
                sortByKey(first, end);
            }
            first = end;
        }
    }

    /**
     * Sorts {@code sortKeys[from, to)}, entries of one hash, by key bytes, then arrival: a merge
     * sort (insertion sort for small ranges) through {@code sortScratch}, whose work grows as n log
     * n however many keys share the hash.
     */
    private void sortByKey(int from, int to) {
        if (to - from <= INSERTION_SORT_MAX) {
            for (int i = from + 1; i < to; i++) {
                long entry = sortKeys[i];
                int j = i - 1;
                while (j >= from && compareEntries(sortKeys[j], entry) > 0) {
                    sortKeys[j + 1] = sortKeys[j];
                    j--;
                }
                sortKeys[j + 1] = entry;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        sortByKey(from, middle);
        sortByKey(middle, to);
        if (compareEntries(sortKeys[middle - 1], sortKeys[middle]) <= 0) {
            return;
        }
        System.arraycopy(sortKeys, from, sortScratch, from, middle - from);
        int left = from;
        int right = middle;
        int out = from;
        while (left < middle && right < to) {
            if (compareEntries(sortScratch[left], sortKeys[right]) <= 0) {
                sortKeys[out++] = sortScratch[left++];
            } else {
                sortKeys[out++] = sortKeys[right++];
            }
        }
        System.arraycopy(sortScratch, left, sortKeys, out, middle - left);
    }

    /** Orders two buffered entries (sort keys) by key bytes, then arrival. */
    private int compareEntries(long a, long b) {
        int entryA = (int) a;
        int entryB = (int) b;
        int startA = offsets[entryA];
        int startB = offsets[entryB];
        int order =
                compareKeys(
                        arena,
                        startA,
                        offsets[entryA + 1] - Long.BYTES,
                        arena,
                        startB,
                        offsets[entryB + 1] - Long.BYTES);
        return order != 0 ? order : Integer.compare(entryA, entryB);
    }

    /** Compares two keys' bytes, unsigned and lexicographically (a prefix comes first). */
    private int compareKeys(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        comparisons++;
        return Arrays.compareUnsigned(a, aFrom, aTo, b, bFrom, bTo);
    }

    /** Orders the buffered sort keys by key hash, keeping arrival order among equal hashes. */
    private void sortByHash() {
        if (sortScratch.length != sortKeys.length) {
            // same length: the sort may hand back either array as the sorted one
            sortScratch = new long[sortKeys.length];
        }
        long[] sorted = HashRadixSort.sort(sortKeys, sortScratch, count);
        if (sorted != sortKeys) {
            sortScratch = sortKeys;
            sortKeys = sorted;
        }
    }

    private void release() {
        arena = new byte[0];
        offsets = new int[1];
        sortKeys = new long[0];
        sortScratch = new long[0];
        count = 0;
        arenaUsed = 0;
    }

    /** The hash entries are sorted by; package-private for tests that need colliding keys. */
    static int hash(byte[] key, int length) {
        int h = 0x9747b28c;
        for (int i = 0; i < length; i++) {
            h = 31 * h + key[i];
        }
        // spread the low bits, so that keys that differ late still sort apart
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    private static void writeLong(byte[] bytes, int at, long value) {
        for (int i = 7; i >= 0; i--) {
            bytes[at + i] = (byte) value;
            value >>>= 8;
        }
    }

    private static long readLong(byte[] bytes, int at) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[at + i] & 0xFF);
        }
        return value;
    }

    /**
     * The key of the entries seen last, with the location of its last written row not yet followed
     * by another change: the key's next change supersedes that row. Entries come grouped by key, so
     * one key is all it holds.
     */
    private final class KeyGroup implements KeyEntrySink {
        private final LongConsumer superseded;
        private boolean started;
        private int hash;
        private byte[] key = new byte[16];
        private int keyLength;
        private long pending;

        private KeyGroup(LongConsumer superseded) {
            this.superseded = superseded;
        }

        @Override
        public void accept(int entryHash, byte[] bytes, int start, int length, long location) {
            if (started
                    && entryHash == hash
                    && compareKeys(key, 0, keyLength, bytes, start, start + length) == 0) {
                if (pending != RETRACTION) {
                    superseded.accept(pending);
                }
                pending = location;
                return;
            }
            started = true;
            hash = entryHash;
            if (key.length < length) {
                key = new byte[Math.max(length, key.length * 2)];
            }
            largestGroupBytes = Math.max(largestGroupBytes, key.length);
            System.arraycopy(bytes, start, key, 0, length);
            keyLength = length;
            pending = location;
        }
    }
}
