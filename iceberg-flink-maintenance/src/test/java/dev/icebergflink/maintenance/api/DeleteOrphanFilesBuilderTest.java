package dev.icebergflink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.orphan.OrphanJudging;
import dev.icebergflink.maintenance.orphan.OrphanMapping;
import dev.icebergflink.maintenance.orphan.OrphanPlanning;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.actions.DeleteOrphanFiles.PrefixMismatchMode;
import org.junit.jupiter.api.Test;

/** The settings of {@link DeleteOrphanFiles}: bad values fail when set, naming the setting. */
class DeleteOrphanFilesBuilderTest {

    @Test
    void badSettingsFailNamingTheSetting() {
        DeleteOrphanFiles.Builder builder = DeleteOrphanFiles.builder();

        assertThatThrownBy(() -> builder.minAge(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("minAge must be a duration of 0 or more, got PT-1S");
        assertThatThrownBy(() -> builder.minAge(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("minAge must be");
        assertThatThrownBy(() -> builder.location(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("location must be a non-blank location, got ' '");
        assertThatThrownBy(() -> builder.prefixMismatchMode(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("prefixMismatchMode must not be null");
        assertThatThrownBy(() -> builder.deleteBatchSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("deleteBatchSize must be positive, got 0");
        assertThatThrownBy(() -> builder.equalSchemes(Map.of("s3a", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "equalSchemes must map non-blank names to a non-blank name, got 's3a' ->"
                                + " ' '");
        Map<String, String> withNull = new HashMap<>();
        withNull.put(null, "nn");
        assertThatThrownBy(() -> builder.equalAuthorities(withNull))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("equalAuthorities must map non-blank names");
        assertThatThrownBy(() -> builder.equalAuthorities(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("equalAuthorities must not be null");
        assertThatThrownBy(() -> builder.scheduleOnCommitCount(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("scheduleOnCommitCount must be positive, got 0");
    }

    @Test
    void aTaskWithoutTriggerIsRejectedWhenTheTopologyIsBuilt() {
        DeleteOrphanFiles.Builder builder = DeleteOrphanFiles.builder().minAge(Duration.ZERO);

        assertThat(builder.trigger().isSet()).isFalse();
        assertThat(builder.scheduleOnInterval(Duration.ofHours(1)).trigger().isSet()).isTrue();
    }

    @Test
    void theTaskRunsInTwoStages() {
        MaintenanceTaskBuilder.Steps steps =
                DeleteOrphanFiles.builder()
                        .prefixMismatchMode(PrefixMismatchMode.IGNORE)
                        .equalAuthorities(Map.of("nn1,nn2", "nameservice"))
                        .usePrefixListing(false)
                        .location("file:/tmp/somewhere")
                        .steps(TableLoader.fromHadoopTable("file:/tmp/no-table"));

        assertThat(steps.twoStage()).isTrue();
        assertThat(steps.worker()).isNull();
        assertThat(steps.planner()).isInstanceOf(OrphanPlanning.class);
        assertThat(steps.mapper()).isInstanceOf(OrphanMapping.class);
        assertThat(steps.reducer()).isInstanceOf(OrphanJudging.class);
        assertThat(DeleteOrphanFiles.builder().taskName()).isEqualTo("DeleteOrphanFiles");
        assertThat(
                        ExpireSnapshots.builder()
                                .steps(TableLoader.fromHadoopTable("file:/x"))
                                .twoStage())
                .isFalse();
    }
}
