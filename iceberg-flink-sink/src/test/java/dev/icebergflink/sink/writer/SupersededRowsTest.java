package dev.icebergflink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SupersededRows} reports exactly the written rows that a later change of their key
 * followed, whether its entries stay in memory or spill into many runs, and tells apart keys with
 * the same hash.
 */
class SupersededRowsTest {

    private static final long LARGE = 64L << 20;
    private static final long SMALL = 2048;

    @TempDir Path spill;

    @Test
    void distinctKeysSupersedeNothing() throws IOException {
        try (SupersededRows rows = new SupersededRows(LARGE, spill)) {
            for (long id = 0; id < 1000; id++) {
                rows.written(key(id), 8, id);
            }
            assertThat(resolve(rows)).isEmpty();
        }
    }

    @Test
    void everyRowButTheLastOfAKeyIsSuperseded() throws IOException {
        try (SupersededRows rows = new SupersededRows(LARGE, spill)) {
            rows.written(key(7), 8, 10);
            rows.written(key(8), 8, 11);
            rows.written(key(7), 8, 12);
            rows.written(key(7), 8, 13);
            assertThat(resolve(rows)).containsExactly(10L, 12L);
        }
    }

    @Test
    void aRetractionSupersedesTheRowBeforeItAndNotTheRowAfterIt() throws IOException {
        try (SupersededRows rows = new SupersededRows(LARGE, spill)) {
            rows.written(key(1), 8, 100);
            rows.retracted(key(1), 8);
            rows.written(key(1), 8, 101);
            // a retraction of a key that wrote nothing here supersedes nothing
            rows.retracted(key(2), 8);
            rows.retracted(key(2), 8);
            rows.written(key(3), 8, 102);
            rows.retracted(key(3), 8);
            assertThat(resolve(rows)).containsExactly(100L, 102L);
        }
    }

    @ParameterizedTest(name = "memory={0}")
    @ValueSource(longs = {LARGE, SMALL})
    void keysWithTheSameHashAreToldApart(long memory) throws IOException {
        byte[][] colliding = collidingKeys();
        try (SupersededRows rows = new SupersededRows(memory, spill)) {
            rows.written(colliding[0], 4, 1);
            rows.written(colliding[1], 4, 2);
            rows.written(colliding[0], 4, 3);
            rows.written(colliding[1], 4, 4);
            rows.retracted(colliding[1], 4);
            // enough other entries to spill the colliding ones into different runs
            for (int i = 0; i < 500; i++) {
                rows.written(key(1_000_000 + i), 8, 1000 + i);
            }
            rows.written(colliding[0], 4, 5);
            assertThat(resolve(rows)).containsExactly(1L, 2L, 3L, 4L);
            if (memory == SMALL) {
                assertThat(rows.spilledRuns()).isGreaterThan(2);
            } else {
                assertThat(rows.spilledRuns()).isZero();
            }
        }
    }

    @Test
    void keysOfDifferentLengthsAreDifferentKeys() throws IOException {
        try (SupersededRows rows = new SupersededRows(SMALL, spill)) {
            for (int i = 0; i < 200; i++) {
                byte[] text = ("key-" + "x".repeat(i % 40)).getBytes(StandardCharsets.UTF_8);
                rows.written(text, text.length, i);
            }
            // keys repeat every 40 changes: all but the last 40 rows are superseded
            TreeSet<Long> expected = new TreeSet<>();
            for (long i = 0; i < 160; i++) {
                expected.add(i);
            }
            assertThat(resolve(rows)).containsExactlyElementsOf(expected);
            assertThat(rows.spilledRuns()).isPositive();
        }
    }

    @ParameterizedTest(name = "memory={0}")
    @ValueSource(longs = {LARGE, 64 * 1024, SMALL})
    void manyKeysWithManyChangesMatchAReferenceModel(long memory) throws IOException {
        Random random = new Random(42);
        Map<Long, Long> lastWritten = new HashMap<>();
        TreeSet<Long> expected = new TreeSet<>();
        long location = 0;
        try (SupersededRows rows = new SupersededRows(memory, spill)) {
            for (int change = 0; change < 50_000; change++) {
                long id = random.nextInt(5_000);
                Long previous = lastWritten.remove(id);
                if (previous != null) {
                    expected.add(previous);
                }
                if (random.nextInt(5) == 0) {
                    rows.retracted(key(id), 8);
                } else {
                    rows.written(key(id), 8, location);
                    lastWritten.put(id, location);
                    location += 1 + random.nextInt(3);
                }
            }
            assertThat(rows.recorded()).isEqualTo(50_000);
            assertThat(resolve(rows)).containsExactlyElementsOf(expected);
            if (memory == LARGE) {
                assertThat(rows.spilledRuns()).isZero();
            } else {
                assertThat(rows.spilledRuns()).isGreaterThan(memory == SMALL ? 100 : 5);
            }
            // the merge removed its runs
            assertThat(spillFiles()).isEmpty();
        }
    }

    @Test
    void buffersStayWithinTheBudgetHoweverManyChangesCome() throws IOException {
        long budget = 256 * 1024;
        try (SupersededRows rows = new SupersededRows(budget, spill)) {
            long largest = 0;
            for (long id = 0; id < 1_000_000; id++) {
                rows.written(key(id % 400_000), 8, id);
                largest = Math.max(largest, rows.bufferBytes());
            }
            // the arrays grow by doubling, but what they hold allocated (the sort's second array
            // included) never passes the budget
            assertThat(largest).isLessThanOrEqualTo(budget);
            // and the budget is used: at most one doubling step left unallocated
            assertThat(largest).isGreaterThan(budget / 2);
            // a million changes of 36 bytes each (8 of key, 8 of location, 20 of bookkeeping)
            // need about 36 MB: spilled, never buffered, and each run fills most of the budget
            long perFullRun = budget / 36;
            assertThat(rows.spilledRuns())
                    .isGreaterThanOrEqualTo((int) (1_000_000 / perFullRun))
                    .isLessThanOrEqualTo((int) (1_000_000 / (perFullRun * 0.85)));
            // every 64 runs are merged into one as they come
            assertThat(spillFiles().size()).isLessThan(SupersededRows.MAX_MERGED_RUNS);
            // key k's last change is at 800,000 + k (k < 200,000) or 400,000 + k: all below
            // 600,000 came before another change of their key
            TreeSet<Long> superseded = resolve(rows);
            assertThat(superseded).hasSize(600_000);
            assertThat(superseded.first()).isZero();
            assertThat(superseded.last()).isEqualTo(599_999L);
        }
    }

    @Test
    void aKeyLargerThanTheWholeBudgetIsStillTracked() throws IOException {
        byte[] large = new byte[3 * (int) SMALL];
        Arrays.fill(large, (byte) 7);
        try (SupersededRows rows = new SupersededRows(SMALL, spill)) {
            rows.written(key(1), 8, 1);
            rows.written(large, large.length, 2);
            rows.written(key(1), 8, 3);
            rows.written(large, large.length, 4);
            rows.written(key(2), 8, 5);
            // each large key is buffered alone (the small ones before it are spilled first)
            assertThat(rows.spilledRuns()).isGreaterThanOrEqualTo(2);
            assertThat(resolve(rows)).containsExactly(1L, 2L);
        }
    }

    @Test
    void closingBeforeResolvingRemovesTheSpilledRuns() throws IOException {
        SupersededRows rows = new SupersededRows(SMALL, spill.resolve("created/on/demand"));
        for (long id = 0; id < 1000; id++) {
            rows.written(key(id), 8, id);
        }
        assertThat(rows.spilledRuns()).isPositive();
        assertThat(spillFiles()).hasSize(rows.spilledRuns());
        rows.close();
        assertThat(spillFiles()).isEmpty();
    }

    @ParameterizedTest(name = "memory={0}")
    @ValueSource(longs = {LARGE, 16 * 1024})
    void thousandsOfKeysOfOneHashAreGroupedInLinearithmicWorkAndBoundedMemory(long memory)
            throws IOException {
        byte[][] keys = keysOfOneHash(12);
        int n = keys.length;
        try (SupersededRows rows = new SupersededRows(memory, spill)) {
            // every key twice, the second pass in reverse order; every tenth key then retracted
            for (int i = 0; i < n; i++) {
                rows.written(keys[i], keys[i].length, i);
            }
            for (int i = n - 1; i >= 0; i--) {
                rows.written(keys[i], keys[i].length, n + i);
            }
            for (int i = 0; i < n; i += 10) {
                rows.retracted(keys[i], keys[i].length);
            }
            TreeSet<Long> expected = new TreeSet<>();
            for (long i = 0; i < n; i++) {
                expected.add(i);
                if (i % 10 == 0) {
                    expected.add(n + i);
                }
            }
            assertThat(resolve(rows)).containsExactlyElementsOf(expected);
            long entries = rows.recorded();
            int log2 = 64 - Long.numberOfLeadingZeros(entries);
            // comparing every pair of keys of the hash would take about entries^2 / 4
            assertThat(rows.keyComparisons()).isLessThanOrEqualTo(4 * entries * log2);
            // the grouping holds one key at a time, not every key of the hash
            assertThat(rows.largestGroupBytes()).isLessThanOrEqualTo(2L * keys[0].length);
            if (memory == LARGE) {
                assertThat(rows.spilledRuns()).isZero();
            } else {
                assertThat(rows.spilledRuns()).isGreaterThan(5);
            }
        }
        assertThat(spillFiles()).isEmpty();
    }

    @Test
    void aFailedFinalMergeLeavesNoSpillFileAfterClose() throws IOException {
        SupersededRows rows = new SupersededRows(SMALL, spill);
        for (long id = 0; id < 3000; id++) {
            rows.written(key(id % 1000), 8, id);
        }
        assertThat(rows.spilledRuns()).isGreaterThan(10);
        assertThat(spillFiles()).isNotEmpty();
        long[] reported = new long[1];
        assertThatThrownBy(
                        () ->
                                rows.resolve(
                                        location -> {
                                            if (++reported[0] == 100) {
                                                throw new IllegalStateException(
                                                        "writing the position delete failed");
                                            }
                                        }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("writing the position delete failed");
        rows.close();
        assertThat(spillFiles()).isEmpty();
    }

    @Test
    void misuseIsRefused() throws IOException {
        assertThatThrownBy(() -> new SupersededRows(1023, spill))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 KiB");
        try (SupersededRows rows = new SupersededRows(LARGE, spill)) {
            assertThatThrownBy(() -> rows.written(key(1), 8, -1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must not be negative");
            resolve(rows);
            assertThatThrownBy(() -> rows.written(key(1), 8, 1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already resolved");
            assertThatThrownBy(() -> resolve(rows))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already resolved");
        }
    }

    private static TreeSet<Long> resolve(SupersededRows rows) throws IOException {
        List<Long> found = new ArrayList<>();
        rows.resolve(found::add);
        TreeSet<Long> distinct = new TreeSet<>(found);
        assertThat(distinct).as("each superseded row is reported once").hasSize(found.size());
        return distinct;
    }

    private List<Path> spillFiles() throws IOException {
        try (Stream<Path> files = Files.walk(spill)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static byte[] key(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    /**
     * {@code 2^blocks} distinct keys of {@code 2 * blocks} bytes with one hash, by construction:
     * the hash starts as a polynomial of the bytes with base 31, in which the two-byte blocks
     * {@code "Aa"} and {@code "BB"} weigh the same (31 * 65 + 97 = 31 * 66 + 66), so every sequence
     * of such blocks has the same hash.
     */
    private static byte[][] keysOfOneHash(int blocks) {
        byte[][] keys = new byte[1 << blocks][];
        for (int k = 0; k < keys.length; k++) {
            byte[] key = new byte[2 * blocks];
            for (int b = 0; b < blocks; b++) {
                boolean aa = (k >>> b & 1) == 0;
                key[2 * b] = (byte) (aa ? 'A' : 'B');
                key[2 * b + 1] = (byte) (aa ? 'a' : 'B');
            }
            keys[k] = key;
        }
        int hash = SupersededRows.hash(keys[0], keys[0].length);
        for (byte[] key : keys) {
            assertThat(SupersededRows.hash(key, key.length)).isEqualTo(hash);
        }
        return keys;
    }

    /** Two different 4-byte keys whose hashes are equal, found by a birthday search. */
    private static byte[][] collidingKeys() {
        Map<Integer, Integer> seen = new HashMap<>();
        for (int i = 0; ; i++) {
            byte[] candidate = ByteBuffer.allocate(4).putInt(i).array();
            Integer earlier = seen.putIfAbsent(SupersededRows.hash(candidate, 4), i);
            if (earlier != null) {
                return new byte[][] {ByteBuffer.allocate(4).putInt(earlier).array(), candidate};
            }
        }
    }
}
