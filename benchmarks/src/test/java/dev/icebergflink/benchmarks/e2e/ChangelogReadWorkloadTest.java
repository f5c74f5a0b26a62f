package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke run of the {@code changelog-read-v2} workload at a tiny size: it runs through {@link
 * WorkloadRunner}, its answer check passes (every key an upsert commit rewrote as one {@code -U}
 * and one {@code +U}), and it reads against the insert-only scan of the same table. No time is
 * asserted.
 */
class ChangelogReadWorkloadTest {

    private static final long ROWS = 2_000;

    @TempDir Path warehouse;

    @Test
    void theChangelogReadEmitsBothHalvesOfEveryUpsert() throws Exception {
        WorkloadRunner runner =
                new WorkloadRunner(new BenchmarkTables(warehouse), new BenchmarkRows(42), ROWS);

        Measurement changes = runner.run(Workload.CHANGELOG_READ_V2, 1);

        long updates = 0;
        for (int commit = 1; commit <= UpsertedTable.UPSERT_COMMITS; commit++) {
            updates += UpsertedTable.rewrittenBy(commit, ROWS);
        }
        assertThat(changes.rows()).isEqualTo(2 * updates).isEqualTo(2 * 1_800);
        assertThat(changes.files()).isPositive();
        assertThat(Workload.CHANGELOG_READ_V2.reference()).isEqualTo("eqdelete-scan-v2");
        assertThat(Workload.CHANGELOG_READ_V2.kind().reads()).isTrue();
    }
}
