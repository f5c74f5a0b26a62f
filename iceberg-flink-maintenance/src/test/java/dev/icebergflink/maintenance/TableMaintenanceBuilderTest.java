package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.ExpireSnapshots;
import dev.icebergflink.maintenance.api.RewriteDataFiles;
import dev.icebergflink.maintenance.api.TableChange;
import dev.icebergflink.maintenance.api.TableMaintenance;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad maintenance settings fail when the topology is built, naming the setting. */
class TableMaintenanceBuilderTest {

    @TempDir Path dir;

    private StreamExecutionEnvironment env;
    private TableLoader loader;

    @BeforeEach
    void setUp() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        loader = TableLoader.fromHadoopTable(table.location());
    }

    @Test
    void aTopologyNeedsATask() {
        assertThatThrownBy(() -> TableMaintenance.forTable(env, loader).append())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no task");
    }

    @Test
    void aTaskNeedsATrigger() {
        assertThatThrownBy(
                        () ->
                                TableMaintenance.forTable(env, loader)
                                        .add(RewriteDataFiles.builder())
                                        .append())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RewriteDataFiles")
                .hasMessageContaining("no trigger")
                .hasMessageContaining("scheduleOn");
    }

    @Test
    void twoTasksMayNotShareAUid() {
        assertThatThrownBy(
                        () ->
                                TableMaintenance.forTable(env, loader)
                                        .add(
                                                RewriteDataFiles.builder()
                                                        .scheduleOnCommitCount(1)
                                                        .uidSuffix("same"))
                                        .add(
                                                ExpireSnapshots.builder()
                                                        .scheduleOnCommitCount(1)
                                                        .uidSuffix("same"))
                                        .append())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("same uid")
                .hasMessageContaining("uidSuffix");
    }

    @Test
    void topologySettingsAreChecked() {
        RewriteDataFiles.Builder task = RewriteDataFiles.builder().scheduleOnCommitCount(1);
        assertThatThrownBy(
                        () ->
                                TableMaintenance.forTable(env, loader)
                                        .rateLimit(Duration.ZERO)
                                        .add(task)
                                        .append())
                .hasMessageContaining("rateLimit must be a positive duration");
        assertThatThrownBy(
                        () ->
                                TableMaintenance.forTable(env, loader)
                                        .lockCheckDelay(Duration.ofSeconds(-1))
                                        .add(task)
                                        .append())
                .hasMessageContaining("lockCheckDelay");
        assertThatThrownBy(
                        () ->
                                TableMaintenance.forTable(env, loader)
                                        .parallelism(0)
                                        .add(task)
                                        .append())
                .hasMessageContaining("parallelism must be positive, got 0");
        assertThatThrownBy(
                        () ->
                                TableMaintenance.forTable(env, loader)
                                        .maxReadBack(0)
                                        .add(task)
                                        .append())
                .hasMessageContaining("maxReadBack must be positive, got 0");
    }

    @Test
    void taskSettingsAreCheckedWhenSet() {
        assertThatThrownBy(() -> RewriteDataFiles.builder().scheduleOnCommitCount(0))
                .hasMessageContaining("scheduleOnCommitCount must be positive, got 0");
        assertThatThrownBy(() -> RewriteDataFiles.builder().scheduleOnDataFileSize(-1))
                .hasMessageContaining("scheduleOnDataFileSize");
        assertThatThrownBy(() -> RewriteDataFiles.builder().scheduleOnInterval(Duration.ZERO))
                .hasMessageContaining("scheduleOnInterval must be a positive duration");
        assertThatThrownBy(() -> RewriteDataFiles.builder().targetFileSizeBytes(-5))
                .hasMessageContaining("target-file-size-bytes must be positive, got -5");
        assertThatThrownBy(() -> RewriteDataFiles.builder().maxRewriteBytes(0))
                .hasMessageContaining("maxRewriteBytes");
        assertThatThrownBy(() -> ExpireSnapshots.builder().retainLast(0))
                .hasMessageContaining("retainLast must be at least 1");
        assertThatThrownBy(() -> ExpireSnapshots.builder().deleteBatchSize(0))
                .hasMessageContaining("deleteBatchSize must be positive");
    }

    @Test
    void aValidTopologyIsAddedToTheJob() throws Exception {
        TableMaintenance.forTable(env, loader)
                .uidSuffix("ok")
                .add(RewriteDataFiles.builder().scheduleOnCommitCount(1))
                .add(ExpireSnapshots.builder().scheduleOnInterval(Duration.ofHours(1)))
                .append();
        String plan = env.getExecutionPlan();
        assertThat(plan)
                .contains("Maintenance monitor")
                .contains("Maintenance trigger manager")
                .contains("RewriteDataFiles[0] plan")
                .contains("ExpireSnapshots[1] work")
                .contains("Maintenance lock remover");
    }

    @Test
    void tableChangesSumAndRejectNegativeCounts() {
        TableChange one = TableChange.builder().dataFileCount(1).commitCount(1).build();
        assertThat(one.merge(one))
                .isEqualTo(TableChange.builder().dataFileCount(2).commitCount(2).build());
        assertThat(TableChange.empty().merge(one)).isEqualTo(one);
        assertThatThrownBy(() -> TableChange.builder().eqDeleteRecordCount(-1).build())
                .hasMessageContaining("eqDeleteRecordCount must not be negative, got -1");
    }
}
