package dev.icebergflink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.options.ConnectorOption;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sink's partial-progress settings of compaction reach the RewriteDataFiles builder. */
class PostCommitRewriteOptionsTest {

    private static final String ENABLED = "flink-maintenance.rewrite.enabled";

    @Test
    void partialProgressSettingsAreKnownAndValidated() {
        PostCommitMaintenanceProvider provider = new PostCommitMaintenanceProvider();

        assertThat(MaintenanceOptions.all())
                .extracting(ConnectorOption::key)
                .contains(
                        "flink-maintenance.rewrite.partial-progress.enabled",
                        "flink-maintenance.rewrite.partial-progress.max-commits");
        provider.validate(
                Map.of(
                        ENABLED,
                        "true",
                        "flink-maintenance.rewrite.partial-progress.enabled",
                        "true",
                        "flink-maintenance.rewrite.partial-progress.max-commits",
                        "3"));
        assertThatThrownBy(
                        () ->
                                provider.validate(
                                        Map.of(
                                                ENABLED,
                                                "true",
                                                "flink-maintenance.rewrite.partial-progress"
                                                        + ".max-commits",
                                                "0")))
                .hasMessageContaining("partialProgressMaxCommits must be positive, got 0");
    }
}
