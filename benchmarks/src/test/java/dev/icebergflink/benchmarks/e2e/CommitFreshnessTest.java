package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The freshness workload's arithmetic without a Flink job: each commit's rows found by the id
 * bounds of the data files it added, its latency from the snapshot's timestamp to its last row's
 * arrival, the percentiles, and the errors for a file that is not a contiguous id range, a row that
 * never arrived, and rows that arrive twice or with other values.
 */
class CommitFreshnessTest {

    private static final BenchmarkRows DATA = new BenchmarkRows(42);

    @TempDir Path folder;

    private Table table() {
        return new HadoopTables(new Configuration())
                .create(
                        BenchmarkRows.SCHEMA,
                        PartitionSpec.unpartitioned(),
                        Map.of(),
                        folder.resolve("t").toUri().toString());
    }

    /** A metadata-only data file of {@code records} rows with ids {@code lower..upper}. */
    private static DataFile file(Table table, String name, long records, long lower, long upper) {
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(100)
                .withRecordCount(records)
                .withMetrics(
                        new Metrics(
                                records,
                                null,
                                null,
                                null,
                                null,
                                Map.of(1, Conversions.toByteBuffer(Types.LongType.get(), lower)),
                                Map.of(1, Conversions.toByteBuffer(Types.LongType.get(), upper))))
                .build();
    }

    @Test
    void measuresEachCommitFromItsSnapshotToItsLastRow() {
        Table table = table();
        // two writers' ranges: commit 1 rows 0-2 and 5-6, commit 2 rows 3-4 and 7-9
        table.newAppend()
                .appendFile(file(table, "a", 3, 0, 2))
                .appendFile(file(table, "b", 2, 5, 6))
                .commit();
        table.newAppend()
                .appendFile(file(table, "c", 2, 3, 4))
                .appendFile(file(table, "d", 3, 7, 9))
                .commit();
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        long first = snapshots.get(0).timestampMillis();
        long second = snapshots.get(1).timestampMillis();
        ArrivalSink.Arrivals arrivals = new ArrivalSink.Arrivals(10);
        for (long id : new long[] {0, 1, 2, 5}) {
            arrivals.record(DATA.rowData(id), DATA, first + 100);
        }
        arrivals.record(DATA.rowData(6L), DATA, first + 700); // the last of commit 1
        for (long id : new long[] {3, 4, 7, 8}) {
            arrivals.record(DATA.rowData(id), DATA, second + 200);
        }
        arrivals.record(DATA.rowData(9L), DATA, second + 1500); // the last of commit 2
        arrivals.check("test");

        CommitFreshness freshness = CommitFreshness.of(table, arrivals);

        assertThat(freshness.latenciesMillis()).containsExactly(700, 1500);
        assertThat(freshness.commits()).isEqualTo(2);
        assertThat(freshness.percentile(0.5)).isEqualTo(700);
        assertThat(freshness.percentile(0.99)).isEqualTo(1500);
        assertThat(new CommitFreshness(new long[0]).percentile(0.5)).isEqualTo(-1);
    }

    @Test
    void failsWhenRowsCannotBeAttributedOrNeverArrived() {
        Table table = table();
        // 2 rows with ids 0..4: not a contiguous range
        table.newAppend().appendFile(file(table, "gap", 2, 0, 4)).commit();
        ArrivalSink.Arrivals arrivals = new ArrivalSink.Arrivals(5);
        assertThatThrownBy(() -> CommitFreshness.of(table, arrivals))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("not a contiguous range");

        Table other =
                new HadoopTables(new Configuration())
                        .create(
                                BenchmarkRows.SCHEMA,
                                PartitionSpec.unpartitioned(),
                                Map.of(),
                                folder.resolve("u").toUri().toString());
        other.newAppend().appendFile(file(other, "whole", 2, 0, 1)).commit();
        ArrivalSink.Arrivals one = new ArrivalSink.Arrivals(2);
        one.record(DATA.rowData(0L), DATA, 1);
        assertThatThrownBy(() -> CommitFreshness.of(other, one))
                .hasMessageContaining("Row 1 of commit")
                .hasMessageContaining("never arrived");
    }

    @Test
    void arrivalsNoticeDuplicatesWrongValuesAndMissingRows() {
        ArrivalSink.Arrivals arrivals = new ArrivalSink.Arrivals(3);
        arrivals.record(DATA.rowData(0L), DATA, 1);
        arrivals.record(DATA.rowData(0L), DATA, 2);
        arrivals.record(new BenchmarkRows(43).rowData(1L), DATA, 3);
        arrivals.record(DATA.rowData(7L), DATA, 4);
        assertThat(arrivals.arrived()).isEqualTo(2);
        assertThat(arrivals.millis(0)).isEqualTo(1);
        assertThatThrownBy(() -> arrivals.check("the read"))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessage(
                        "the read: 2 of 3 rows arrived, 1 twice, 1 with an id out of range, 1 with"
                                + " values that are not the generated ones");
    }
}
