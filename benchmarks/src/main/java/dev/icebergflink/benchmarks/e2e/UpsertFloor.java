package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.sink.distribution.ChangelogDeduplicator;
import dev.icebergflink.sink.distribution.EqualityKey;
import dev.icebergflink.sink.distribution.EqualityKeySelector;
import dev.icebergflink.sink.distribution.InputOrderStamper;
import java.util.Locale;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.MathUtils;

/**
 * Flink's own cost under the upsert workload (not part of the suite): the upsert's input (the same
 * generator, a quarter of the rows, every fourth id) keyed by the same {@link EqualityKeySelector}
 * in BATCH execution at the suite's parallelism, into
 *
 * <ul>
 *   <li>{@code keyed}: a keyed operator that drops every row: the blocking shuffle and the sorted
 *       keyed input alone, the floor any keyed upsert pays;
 *   <li>{@code dedup}: the sink's {@link ChangelogDeduplicator} and a discarding sink: the floor
 *       plus the de-duplication, without the Iceberg writer;
 *   <li>{@code stamped-dedup}: {@code dedup} behind the sink's {@link InputOrderStamper}, as the
 *       sink runs it in AUTOMATIC execution (and BATCH with range distribution);
 *   <li>{@code hashed}: the input partitioned by the hash of the key, as the sink sends it to its
 *       key-tracking writers in BATCH execution, into an operator that drops every row: the
 *       blocking shuffle without a sort.
 * </ul>
 *
 * <p>It exists so that the upsert's time splits into Flink's part and the sink's. Arguments: {@code
 * rows (the table size; a quarter is keyed) runs}; it prints one line per job with the job's net
 * runtime and the process CPU time over the job.
 */
public final class UpsertFloor {

    private UpsertFloor() {}

    public static void main(String[] args) throws Exception {
        long rows = Long.parseLong(args[0]);
        int runs = Integer.parseInt(args[1]);
        BenchmarkRows updates = new BenchmarkRows(43);
        long keyed = WorkloadRunner.upsertRows(rows);
        // warm-up
        run("keyed", updates, keyed / 10);
        run("dedup", updates, keyed / 10);
        for (int run = 1; run <= runs; run++) {
            for (String variant : new String[] {"keyed", "dedup", "stamped-dedup", "hashed"}) {
                Measurement.Stopwatch watch = Measurement.start();
                JobExecutionResult result = run(variant, updates, keyed);
                Measurement.Span span = watch.stop(result.getNetRuntime() / 1000.0);
                System.out.printf(
                        Locale.ROOT,
                        "FLOOR variant=%s run=%d rows=%d seconds=%.3f cpu_s=%.2f%n",
                        variant,
                        run,
                        keyed,
                        span.seconds(),
                        span.cpuSeconds());
            }
        }
        System.exit(0);
    }

    private static JobExecutionResult run(String variant, BenchmarkRows updates, long count)
            throws Exception {
        StreamExecutionEnvironment env = WorkloadRunner.environment();
        DataStream<RowData> input = GeneratedRows.stream(env, updates, count, 4);
        if (variant.startsWith("stamped")) {
            input =
                    input.transform("stamper", input.getType(), new InputOrderStamper())
                            .setParallelism(input.getParallelism());
        }
        EqualityKeySelector keys = new EqualityKeySelector(BenchmarkRows.ROW_TYPE, new int[] {0});
        if ("hashed".equals(variant)) {
            input.partitionCustom(
                            (EqualityKey key, int writers) ->
                                    MathUtils.murmurHash(key.hashCode()) % writers,
                            keys)
                    .transform(
                            variant,
                            InternalTypeInfo.of(BenchmarkRows.ROW_TYPE),
                            new DroppingOperator())
                    .sinkTo(new DiscardingSink<>());
            return env.execute("upsert-floor-" + variant);
        }
        DataStream<RowData> keyedInput =
                input.keyBy(keys, keys.keyType())
                        .transform(
                                variant,
                                InternalTypeInfo.of(BenchmarkRows.ROW_TYPE),
                                "keyed".equals(variant)
                                        ? new DroppingOperator()
                                        : new ChangelogDeduplicator(
                                                BenchmarkRows.ROW_TYPE,
                                                ChangelogDeduplicator.Mode.UPSERT));
        keyedInput.sinkTo(new DiscardingSink<>());
        return env.execute("upsert-floor-" + variant);
    }

    /** An operator that drops its input. */
    private static final class DroppingOperator extends AbstractStreamOperator<RowData>
            implements OneInputStreamOperator<RowData, RowData> {

        private static final long serialVersionUID = 1L;

        @Override
        public void processElement(StreamRecord<RowData> element) {}
    }
}
