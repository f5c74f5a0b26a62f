package dev.icebergflink.benchmarks.planning;

import java.util.Locale;

/**
 * One result of the planning benchmark, printed as one JSON object per line so that scripts and
 * docs/benchmarks.md can take it as it is.
 *
 * @param workload what was measured: {@code planning-bounded} (every split of a bounded read at
 *     once) or {@code planning-paged} (the same splits page by page, as the enumerator plans large
 *     scans)
 * @param run the number of the run, from 1
 * @param files data files in the table
 * @param splits splits planned
 * @param seconds wall-clock seconds the planning took
 * @param firstPageSeconds seconds until the first page of splits (the whole plan when unpaged)
 * @param pendingSplits splits in the measured enumerator state
 * @param stateBytes size of that enumerator state, serialized by the source's serializer
 * @param bytesPerSplit {@code stateBytes / pendingSplits}
 * @param bytesPerFile {@code stateBytes} divided by the data files of the pending splits
 */
public record PlanningMeasurement(
        String workload,
        int run,
        int files,
        int splits,
        double seconds,
        double firstPageSeconds,
        int pendingSplits,
        long stateBytes,
        double bytesPerSplit,
        double bytesPerFile) {

    /** This result as one line of JSON with the fields in declaration order. */
    public String toJson() {
        return String.format(
                Locale.ROOT,
                "{\"workload\":\"%s\",\"run\":%d,\"files\":%d,\"splits\":%d,\"seconds\":%.3f,"
                        + "\"firstPageSeconds\":%.3f,\"pendingSplits\":%d,\"stateBytes\":%d,"
                        + "\"bytesPerSplit\":%.1f,\"bytesPerFile\":%.1f}",
                workload,
                run,
                files,
                splits,
                seconds,
                firstPageSeconds,
                pendingSplits,
                stateBytes,
                bytesPerSplit,
                bytesPerFile);
    }
}
