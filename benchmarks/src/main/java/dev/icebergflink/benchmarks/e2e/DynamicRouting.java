package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.sink.dynamic.DynamicRecord;
import dev.icebergflink.sink.dynamic.DynamicRecordGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.BucketUtil;

/**
 * Which table each generated row goes to in the {@code dynamic-*} workloads: the table of a row is
 * Iceberg's bucket of its id ({@code bucket[tables](id)}: murmur3 of the id modulo the table
 * count), so one stream spreads over all tables with a little unevenness, the way rows of many
 * source tables arrive interleaved in one replication stream. The same function makes the {@link
 * DynamicRecordGenerator} of the job and the per-table counts the answer check expects.
 *
 * <p>Tables are named {@code <prefix>_t<index>} in the suite's namespace, with the index padded to
 * three digits.
 */
final class DynamicRouting {

    private DynamicRouting() {}

    /** The table index of the row {@code id}: Iceberg's bucket transform of the id. */
    static int tableOf(long id, int tables) {
        return (BucketUtil.hash(id) & Integer.MAX_VALUE) % tables;
    }

    /** The name of table {@code index} of a workload's run. */
    static String tableName(String prefix, int index) {
        return String.format(Locale.ROOT, "%s_t%03d", prefix, index);
    }

    /** The names of all tables of a workload's run, by index. */
    static List<String> tableNames(String prefix, int tables) {
        List<String> names = new ArrayList<>(tables);
        for (int t = 0; t < tables; t++) {
            names.add(tableName(prefix, t));
        }
        return names;
    }

    /** How many of the ids {@code [0, rows)} each table gets. */
    static long[] expectedCounts(long rows, int tables) {
        long[] counts = new long[tables];
        for (long id = 0; id < rows; id++) {
            counts[tableOf(id, tables)]++;
        }
        return counts;
    }

    /**
     * The generator of the dynamic sink: each benchmark row as a {@link DynamicRecord} of the
     * benchmark schema, unpartitioned, for the table its id routes to, on the main branch and
     * without a shuffle of its own (the sink spreads such rows round-robin over its writers).
     */
    static final class Generator implements DynamicRecordGenerator<RowData> {

        private static final long serialVersionUID = 1L;

        private final String prefix;
        private final int tables;
        private transient TableIdentifier[] identifiers;

        /**
         * @param prefix the prefix of the table names
         * @param tables how many tables
         */
        Generator(String prefix, int tables) {
            this.prefix = prefix;
            this.tables = tables;
        }

        @Override
        public void open(OpenContext openContext) {
            identifiers = new TableIdentifier[tables];
            for (int t = 0; t < tables; t++) {
                identifiers[t] = BenchmarkTables.identifier(tableName(prefix, t));
            }
        }

        @Override
        public void generate(RowData row, Collector<DynamicRecord> out) {
            out.collect(
                    new DynamicRecord(
                            identifiers[tableOf(row.getLong(0), tables)],
                            null,
                            BenchmarkRows.SCHEMA,
                            row,
                            PartitionSpec.unpartitioned()));
        }
    }
}
