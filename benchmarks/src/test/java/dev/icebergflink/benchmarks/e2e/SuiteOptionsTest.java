package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SuiteOptionsTest {

    @Test
    void warmsUpOnATenthOfTheRowsAtMostHalfAMillion() {
        assertThat(SuiteOptions.parse(new String[0]).warmupRows()).isEqualTo(500_000L);
        assertThat(SuiteOptions.parse(new String[] {"--rows", "2000000"}).warmupRows())
                .isEqualTo(200_000L);
        assertThat(SuiteOptions.parse(new String[] {"--rows", "20"}).warmupRows()).isZero();
        assertThat(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--warmup-rows", "0"})
                                .warmupRows())
                .isZero();
        assertThat(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--warmup-rows", "1000"})
                                .warmupRows())
                .isEqualTo(1000L);
    }

    @Test
    void rejectsWarmupsLargerThanTheRunOrTooSmall() {
        assertThatThrownBy(
                        () ->
                                SuiteOptions.parse(
                                        new String[] {"--rows", "1000", "--warmup-rows", "1001"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--warmup-rows must be 0 (no warm-up) or between 4 and")
                .hasMessageContaining("got 1001");
        assertThatThrownBy(() -> SuiteOptions.parse(new String[] {"--warmup-rows", "2"}))
                .hasMessageContaining("got 2");
        assertThatThrownBy(() -> SuiteOptions.parse(new String[] {"--warmup", "2"}))
                .hasMessageContaining("Unknown option --warmup; allowed: --rows --warmup-rows");
    }

    @Test
    void runsIcebergsConnectorForEveryChosenWorkloadThatHasARunThroughIt() {
        assertThat(SuiteOptions.parse(new String[0]).references())
                .containsExactlyElementsOf(Workload.withConnectorReference())
                .contains(
                        Workload.APPEND_PARQUET,
                        Workload.APPEND_PARTITIONED,
                        Workload.SQL_INSERT,
                        Workload.UPSERT,
                        Workload.SCAN_AVRO,
                        Workload.SCAN_PROJECTED_FILTERED,
                        Workload.SQL_FILTER)
                .doesNotContain(
                        Workload.LIMIT_WRITE_PARQUET,
                        Workload.UPSERT_UNIQUE_KEYS,
                        Workload.DYNAMIC_10_TABLES,
                        Workload.EQDELETE_SCAN_V2);
        assertThat(
                        SuiteOptions.parse(
                                        new String[] {
                                            "--workloads", "limit-write-parquet,append-orc,upsert"
                                        })
                                .references())
                .containsExactly(Workload.APPEND_ORC, Workload.UPSERT);
        assertThat(
                        SuiteOptions.parse(
                                        new String[] {
                                            "--workloads",
                                            "append-orc,scan-orc",
                                            "--references",
                                            "scan-orc"
                                        })
                                .references())
                .containsExactly(Workload.SCAN_ORC);
        assertThat(SuiteOptions.parse(new String[] {"--references", "none"}).references())
                .isEmpty();
        assertThat(Workload.SCAN_ORC.connectorReferenceId()).isEqualTo("reference-scan-orc");
    }

    @Test
    void rejectsReferencesThatDoNotExistOrDoNotRunNextToTheirWorkload() {
        assertThatThrownBy(
                        () ->
                                SuiteOptions.parse(
                                        new String[] {"--references", "upsert-unique-keys"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "--references: workload 'upsert-unique-keys' does not run through"
                                + " Iceberg's connector; those that do: append-parquet,");
        assertThatThrownBy(
                        () ->
                                SuiteOptions.parse(
                                        new String[] {
                                            "--workloads", "append-orc", "--references", "scan-orc"
                                        }))
                .hasMessageContaining(
                        "--references: workload 'scan-orc' is not among --workloads"
                                + " (append-orc)");
        assertThatThrownBy(() -> SuiteOptions.parse(new String[] {"--references", "nope"}))
                .hasMessageContaining("Unknown workload 'nope'");
    }
}
