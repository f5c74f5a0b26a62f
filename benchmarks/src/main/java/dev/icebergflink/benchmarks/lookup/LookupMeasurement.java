package dev.icebergflink.benchmarks.lookup;

import java.util.Locale;

/**
 * One result of the lookup benchmark, printed as one JSON object per line so that scripts and
 * docs/benchmarks.md can take it as it is.
 *
 * @param workload what was measured: {@code lookup-full-load} (loading the FULL cache), {@code
 *     lookup-full} (lookups answered by the FULL cache), {@code lookup-none} (every lookup plans
 *     and reads the files that can hold its key) or {@code lookup-partial} (the same behind Flink's
 *     partial cache, with a hot set of keys)
 * @param run the number of the run, from 1
 * @param tableRows rows in the dimension table
 * @param lookups lookups made (0 for the load)
 * @param matched rows the lookups returned (the rows loaded, for the load)
 * @param seconds wall-clock seconds of the measured part
 * @param cacheBytes the FULL cache's estimated heap (0 for the other workloads)
 */
public record LookupMeasurement(
        String workload,
        int run,
        long tableRows,
        long lookups,
        long matched,
        double seconds,
        long cacheBytes) {

    /** Lookups per second, or rows loaded per second for the load. */
    public double perSecond() {
        return (lookups == 0 ? matched : lookups) / seconds;
    }

    /** This result as one line of JSON with the fields in declaration order. */
    public String toJson() {
        return String.format(
                Locale.ROOT,
                "{\"workload\":\"%s\",\"run\":%d,\"tableRows\":%d,\"lookups\":%d,\"matched\":%d,"
                        + "\"seconds\":%.3f,\"perSecond\":%.0f,\"cacheBytes\":%d}",
                workload,
                run,
                tableRows,
                lookups,
                matched,
                seconds,
                perSecond(),
                cacheBytes);
    }
}
