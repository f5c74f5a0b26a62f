package dev.icebergflink.table.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.reader.RowDataConverter;
import dev.icebergflink.table.testing.TableData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.lookup.LookupOptions.LookupCacheType;
import org.apache.flink.table.connector.source.lookup.cache.trigger.PeriodicCacheReloadTrigger.ScheduleMode;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FULL cache on a real (local) table: a reload after appends adds only the appended rows, a
 * reload after a delete starts over, a reload swaps complete indexes (a lookup during a reload sees
 * the old rows, never a part of the new ones), and a table too large for the memory limit fails
 * with advice while the old rows keep serving; pushed filters restrict the cached rows, and a
 * failing per-key lookup is retried, then fails with its cause, as does a FULL cache that cannot
 * reload (after serving its rows while it retries). Also the checks of the lookup options and keys.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LookupCacheTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()));

    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    @TempDir Path directory;

    private Table table;
    private LookupKeys keys;

    @BeforeEach
    void createTable() {
        table = new HadoopTables(new Configuration()).create(SCHEMA, directory.toUri().toString());
        keys = new LookupKeys(ROW_TYPE, SCHEMA, new int[] {0});
    }

    @Test
    void reloadsAddAppendedRowsAndStartOverAfterDeletes() throws Exception {
        TableData.append(table, List.of(TableData.row(1, "one"), TableData.row(2, "two")));
        try (LookupTableReader reader = reader(new Gate())) {
            FullCache cache = new FullCache(reader, keys, Long.MAX_VALUE);
            assertThat(cache.reload()).isEqualTo(FullCache.Reload.FULL);
            assertThat(names(cache, 1)).containsExactly("one");
            assertThat(cache.reload()).isEqualTo(FullCache.Reload.UNCHANGED);

            TableData.append(table, List.of(TableData.row(3, "three")));
            TableData.append(table, List.of(TableData.row(1, "uno")));
            assertThat(cache.reload()).isEqualTo(FullCache.Reload.INCREMENTAL);
            assertThat(names(cache, 1)).containsExactlyInAnyOrder("one", "uno");
            assertThat(names(cache, 3)).containsExactly("three");
            assertThat(cache.rowCount()).isEqualTo(4);

            table.newDelete().deleteFromRowFilter(Expressions.equal("id", 3)).commit();
            assertThat(cache.reload()).isEqualTo(FullCache.Reload.FULL);
            assertThat(names(cache, 3)).isEmpty();
            assertThat(names(cache, 2)).containsExactly("two");
            assertThat(cache.rowCount()).isEqualTo(3);
        }
    }

    @Test
    void aLookupDuringAReloadSeesTheCompleteOldRows() throws Exception {
        TableData.append(table, List.of(TableData.row(1, "one"), TableData.row(2, "two")));
        Gate gate = new Gate();
        try (LookupTableReader reader = reader(gate)) {
            FullCache cache = new FullCache(reader, keys, Long.MAX_VALUE);
            cache.reload();
            table.newOverwrite()
                    .deleteFile(
                            table.currentSnapshot().addedDataFiles(table.io()).iterator().next())
                    .addFile(
                            TableData.writeFiles(
                                            table,
                                            List.of(
                                                    TableData.row(1, "uno"),
                                                    TableData.row(3, "three")))
                                    .get(0))
                    .commit();

            gate.close();
            CompletableFuture<FullCache.Reload> reload =
                    CompletableFuture.supplyAsync(cache::reload);
            assertThat(gate.reached.await(30, TimeUnit.SECONDS)).isTrue();
            // the new index has a row already, but lookups still see the old index, whole
            assertThat(names(cache, 1)).containsExactly("one");
            assertThat(names(cache, 2)).containsExactly("two");
            assertThat(names(cache, 3)).isEmpty();

            gate.open.countDown();
            assertThat(reload.get(30, TimeUnit.SECONDS)).isEqualTo(FullCache.Reload.FULL);
            assertThat(names(cache, 1)).containsExactly("uno");
            assertThat(names(cache, 2)).isEmpty();
            assertThat(names(cache, 3)).containsExactly("three");
        }
    }

    @Test
    void aTableTooLargeForTheMemoryLimitFailsWithAdviceAndTheOldRowsStay() throws Exception {
        TableData.append(table, List.of(TableData.row(1, "one")));
        try (LookupTableReader reader = reader(new Gate())) {
            FullCache cache = new FullCache(reader, keys, 1_000);
            cache.reload();
            assertThat(cache.estimatedBytes()).isPositive().isLessThan(1_000);
            TableData.append(
                    table,
                    List.of(
                            TableData.row(2, "two"),
                            TableData.row(3, "three"),
                            TableData.row(4, "four"),
                            TableData.row(5, "five"),
                            TableData.row(6, "six")));

            assertThatThrownBy(cache::reload)
                    .isInstanceOf(RowIndex.CacheTooLargeException.class)
                    .hasMessageContaining("'lookup.cache'='PARTIAL'")
                    .hasMessageContaining("'lookup.full-cache.max-memory'")
                    .hasMessageContaining("lookup-test");
            assertThat(names(cache, 1)).containsExactly("one");
            assertThat(names(cache, 2)).isEmpty();
        }
    }

    @Test
    void theCacheHoldsOnlyRowsThatPassThePushedFilters() throws Exception {
        TableData.append(
                table,
                List.of(TableData.row(1, "one"), TableData.row(2, "two"), TableData.row(3, "x")));
        try (LookupTableReader reader =
                reader(new Gate(), List.of(Expressions.notEqual("name", "x")))) {
            reader.open();
            FullCache cache = new FullCache(reader, keys, Long.MAX_VALUE);
            cache.reload();
            assertThat(cache.rowCount()).isEqualTo(2);
            assertThat(names(cache, 2)).containsExactly("two");
            assertThat(names(cache, 3)).isEmpty();
        }
    }

    @Test
    void aFailingLookupIsTriedAgainAndThenFailsWithTheCause() throws Exception {
        TableData.append(table, List.of(TableData.row(1, "one")));
        String file =
                table.currentSnapshot().addedDataFiles(table.io()).iterator().next().location();
        ScanLookupFunction lookup =
                new ScanLookupFunction(
                        reader(new Gate(), List.of()),
                        keys,
                        LookupSettings.resolve(
                                "t", Map.of("lookup.cache", "NONE", "lookup.max-retries", "1")));
        lookup.open(null);
        try {
            assertThat(lookup.lookup(GenericRowData.of(1))).hasSize(1);
            table.io().deleteFile(file);
            assertThatThrownBy(() -> lookup.lookup(GenericRowData.of(1)))
                    .isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("failed 2 times ('lookup.max-retries'=1)")
                    .hasRootCauseInstanceOf(java.io.FileNotFoundException.class);
        } finally {
            lookup.close();
        }
    }

    @Test
    void aFullCacheThatCannotReloadServesItsRowsUntilTheRetriesAreUsedUp() throws Exception {
        TableData.append(table, List.of(TableData.row(1, "one")));
        String file =
                table.currentSnapshot().addedDataFiles(table.io()).iterator().next().location();
        FullCacheLookupFunction lookup =
                new FullCacheLookupFunction(
                        reader(new Gate(), List.of()),
                        keys,
                        LookupSettings.resolve(
                                "t",
                                Map.of(
                                        "lookup.full-cache.periodic-reload.interval", "20ms",
                                        "lookup.max-retries", "2")));
        lookup.open(new FunctionContext(null));
        try {
            assertThat(lookup.lookup(GenericRowData.of(1))).hasSize(1);
            // a new snapshot that is not an append makes the cache read the table again, whose
            // only file is gone: the file goes first, so that no reload can read it once the new
            // snapshots are there (a reload in between would leave nothing new to read)
            table.io().deleteFile(file);
            table.newDelete().deleteFromRowFilter(Expressions.equal("id", 2)).commit();
            table.newOverwrite().commit();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            java.io.IOException failure = null;
            while (failure == null && System.nanoTime() < deadline) {
                try {
                    // until the retries are used up, the old rows answer
                    assertThat(lookup.lookup(GenericRowData.of(1))).hasSize(1);
                } catch (java.io.IOException e) {
                    failure = e;
                }
            }
            assertThat(failure)
                    .isNotNull()
                    .hasMessageContaining("3 attempts in a row failed ('lookup.max-retries'=2)")
                    .hasRootCauseInstanceOf(java.io.FileNotFoundException.class);
        } finally {
            lookup.close();
        }
    }

    @Test
    void keysWithNullOrNaNMatchNothingAndOthersBecomeIcebergFilters() {
        assertThat(keys.ofLookup(GenericRowData.of((Object) null))).isNull();
        GenericRowData key = keys.ofLookup(GenericRowData.of(7));
        assertThat(key).isEqualTo(GenericRowData.of(7));
        assertThat(keys.filter(key).toString()).contains("id", "7");
        LookupKeys doubles =
                new LookupKeys(
                        RowType.of(new org.apache.flink.table.types.logical.DoubleType()),
                        new Schema(Types.NestedField.optional(1, "d", Types.DoubleType.get())),
                        new int[] {0});
        assertThat(doubles.ofLookup(GenericRowData.of(Double.NaN))).isNull();
    }

    @Test
    void optionsHaveTheirDefaultsAndWrongValuesNameTheOptionAndWhatIsAllowed() {
        LookupSettings defaults = LookupSettings.defaults();
        assertThat(defaults.cache()).isEqualTo(LookupCacheType.FULL);
        assertThat(defaults.reloadInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.scheduleMode()).isEqualTo(ScheduleMode.FIXED_DELAY);
        assertThat(defaults.maxRetries()).isEqualTo(3);
        assertThat(defaults.fullCacheMemoryLimit()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);

        LookupSettings partial =
                LookupSettings.resolve(
                        "t",
                        Map.of(
                                "lookup.cache", "partial",
                                "lookup.partial-cache.max-rows", "10",
                                "lookup.full-cache.periodic-reload.schedule-mode", "fixed_rate",
                                "lookup.full-cache.max-memory", "64 mb",
                                "streaming", "true"));
        assertThat(partial.cache()).isEqualTo(LookupCacheType.PARTIAL);
        assertThat(partial.partialMaxRows()).isEqualTo(10);
        assertThat(partial.scheduleMode()).isEqualTo(ScheduleMode.FIXED_RATE);
        assertThat(partial.fullCacheMemoryLimit()).isEqualTo(64L << 20);

        assertThatThrownBy(() -> LookupSettings.resolve("t", Map.of("lookup.cache", "ALL")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Table t")
                .hasMessageContaining("'lookup.cache'")
                .hasMessageContaining("[NONE, PARTIAL, FULL]");
        assertThatThrownBy(
                        () ->
                                LookupSettings.resolve(
                                        "t",
                                        Map.of(
                                                "lookup.full-cache.periodic-reload.schedule-mode",
                                                "SOMETIMES")))
                .hasMessageContaining("'lookup.full-cache.periodic-reload.schedule-mode'")
                .hasMessageContaining("[FIXED_DELAY, FIXED_RATE]");
        assertThatThrownBy(
                        () ->
                                LookupSettings.resolve(
                                        "t",
                                        Map.of("lookup.full-cache.periodic-reload.interval", "0s")))
                .hasMessageContaining("'lookup.full-cache.periodic-reload.interval'")
                .hasMessageContaining("a positive duration");
        assertThatThrownBy(
                        () ->
                                LookupSettings.resolve(
                                        "t", Map.of("lookup.full-cache.max-memory", "lots")))
                .hasMessageContaining("'lookup.full-cache.max-memory'")
                .hasMessageContaining("a memory size");
        assertThatThrownBy(() -> LookupSettings.resolve("t", Map.of("lookup.max-retries", "-1")))
                .hasMessageContaining("'lookup.max-retries'")
                .hasMessageContaining("0 or more");
        assertThatThrownBy(() -> LookupSettings.resolve("t", Map.of("lookup.cache", "PARTIAL")))
                .hasMessageContaining("'lookup.cache'='PARTIAL' needs a bound")
                .hasMessageContaining("'lookup.partial-cache.max-rows'");
    }

    private static List<String> names(FullCache cache, int id) {
        return cache.lookup(GenericRowData.of(id)).stream()
                .map(row -> row.getString(1).toString())
                .toList();
    }

    private LookupTableReader reader(Gate gate) {
        LookupTableReader reader = reader(gate, List.of());
        reader.open();
        return reader;
    }

    /** A reader with these pushed filters; opened by the caller. */
    private LookupTableReader reader(Gate gate, List<Expression> filters) {
        ScanContext plan =
                ScanContext.resolve(Map.of(), null, table, null, List.of())
                        .withProjection(SCHEMA)
                        .withFilters(filters);
        return new LookupTableReader(
                "lookup-test",
                TableLoader.fromHadoopTable(directory.toUri().toString()),
                plan,
                gate,
                ROW_TYPE);
    }

    /**
     * A converter that passes rows through; once closed, it stops at the first row until opened
     * again, so a test can look at the cache in the middle of a load.
     */
    private static final class Gate implements RowDataConverter<RowData> {
        private static final long serialVersionUID = 1L;
        private volatile boolean closed;
        final transient CountDownLatch reached = new CountDownLatch(1);
        final transient CountDownLatch open = new CountDownLatch(1);

        void close() {
            closed = true;
        }

        @Override
        public RowData convert(RowData row) {
            if (closed) {
                reached.countDown();
                try {
                    open.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return row;
        }

        @Override
        public TypeInformation<RowData> getProducedType() {
            return InternalTypeInfo.of(ROW_TYPE);
        }
    }
}
