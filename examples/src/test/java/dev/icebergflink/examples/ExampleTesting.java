package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/** The MiniCluster, output capture and table access the example ITCases share. */
final class ExampleTesting {

    private ExampleTesting() {}

    /** One TaskManager with four slots, shared per test class. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(4)
                        .setConfiguration(new Configuration())
                        .build());
    }

    /**
     * Something an example prints to: a {@link PrintStream} whose text the test reads, and waits
     * for while another thread prints.
     */
    static final class Output {
        private final ByteArrayOutputStream bytes = new NotifyingBytes();
        final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        /**
         * Waits until the printed text satisfies {@code condition} (checked after every write and
         * on {@link #wakeUp}) or {@code System.nanoTime()} passes {@code deadlineNanos}; returns
         * whether the condition holds.
         */
        boolean await(Predicate<String> condition, long deadlineNanos) throws InterruptedException {
            synchronized (bytes) {
                while (!condition.test(text())) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(bytes, left);
                }
                return true;
            }
        }

        /** Lets {@link #await} check its condition again (e.g. when the printing job ended). */
        void wakeUp() {
            synchronized (bytes) {
                bytes.notifyAll();
            }
        }

        /** The bytes, waking up the waiters of {@link #await} on every write. */
        private static final class NotifyingBytes extends ByteArrayOutputStream {
            @Override
            public synchronized void write(int b) {
                super.write(b);
                notifyAll();
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                super.write(b, off, len);
                notifyAll();
            }
        }
    }

    /**
     * Waits until {@code condition} holds, looking every 100 ms; fails naming {@code what} (and
     * what {@code state} says then) after {@code timeout}.
     */
    static void await(
            String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        "Timed out after " + timeout + " waiting for " + what + "; " + state.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /** The catalog arguments of a Hadoop catalog under {@code warehouse}. */
    static List<String> catalogArgs(Path warehouse) {
        return List.of("--warehouse", warehouse.toUri().toString());
    }

    /** The command line {@code base} followed by {@code more}. */
    static String[] args(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    /** The Hadoop catalog under {@code warehouse}, as {@link #catalogArgs} describe it. */
    static CatalogLoader catalog(Path warehouse) {
        return CatalogLoader.hadoop(
                "check",
                new org.apache.hadoop.conf.Configuration(),
                Map.of("warehouse", warehouse.toUri().toString()));
    }

    /** Loads a table of the Hadoop catalog under {@code warehouse} with Iceberg's own catalog. */
    static Table loadTable(Path warehouse, String table) {
        Catalog catalog = catalog(warehouse).loadCatalog();
        return catalog.loadTable(TableIdentifier.parse(table));
    }

    /** The rows of the table read with Iceberg's generic reader, keyed by the long column id. */
    static Map<Long, Record> recordsById(Table table) throws Exception {
        Map<Long, Record> byId = new HashMap<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                Record previous = byId.put((Long) record.getField("id"), record.copy());
                if (previous != null) {
                    throw new AssertionError("Duplicate id: " + record + " and " + previous);
                }
            }
        }
        return byId;
    }

    /** The summary {@link BatchRead} should compute for the generated events 0 to count - 1. */
    static List<CategorySummary> expectedSummary(long count) {
        List<CategorySummary> expected = new ArrayList<>();
        for (int c = 0; c < GeneratedEvents.CATEGORIES.length; c++) {
            long events = 0;
            BigDecimal amount = BigDecimal.ZERO.setScale(2);
            for (long id = c; id < count; id += GeneratedEvents.CATEGORIES.length) {
                events++;
                amount = amount.add(GeneratedEvents.amountOf(id));
            }
            expected.add(new CategorySummary(GeneratedEvents.CATEGORIES[c], events, amount));
        }
        return expected;
    }
}
