package dev.icebergflink.source.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.ChangelogReadMode;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.SourceTestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan resolved once: its read mode, its derivations and where each option came from. */
class ScanContextTest {

    @TempDir Path dir;
    private Table table;
    private Snapshot first;

    @BeforeEach
    void createTable() {
        table = SourceTestTables.create(dir.resolve("t").toString(), 2);
        first = SourceTestTables.append(table, 0, 3);
        SourceTestTables.append(table, 3, 6);
    }

    private ScanContext resolve(Map<String, String> options) {
        return ScanContext.resolve(options, new Configuration(), table, null, List.of());
    }

    @Test
    void readModeFollowsTheDecisionTable() {
        assertThat(resolve(Map.of()).mode()).isEqualTo(ReadMode.SNAPSHOT);
        assertThat(resolve(Map.of("snapshot-id", Long.toString(first.snapshotId()))).mode())
                .isEqualTo(ReadMode.SNAPSHOT);
        assertThat(resolve(Map.of("start-snapshot-id", Long.toString(first.snapshotId()))).mode())
                .isEqualTo(ReadMode.INCREMENTAL_RANGE);
        assertThat(
                        resolve(
                                        Map.of(
                                                "streaming",
                                                "true",
                                                "start-snapshot-id",
                                                Long.toString(first.snapshotId())))
                                .mode())
                .isEqualTo(ReadMode.STREAMING_AFTER_START);
        assertThat(
                        resolve(
                                        Map.of(
                                                "streaming",
                                                "true",
                                                "starting-strategy",
                                                "INCREMENTAL_FROM_SNAPSHOT_ID",
                                                "start-snapshot-id",
                                                Long.toString(first.snapshotId())))
                                .mode())
                .isEqualTo(ReadMode.STREAMING_FROM_STRATEGY);
        assertThat(resolve(Map.of("streaming", "true")).mode())
                .isEqualTo(ReadMode.STREAMING_FROM_STRATEGY);

        assertThat(ReadMode.SNAPSHOT.boundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(ReadMode.INCREMENTAL_RANGE.continuous()).isFalse();
        assertThat(ReadMode.STREAMING_AFTER_START.boundedness())
                .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(ReadMode.STREAMING_FROM_STRATEGY.continuous()).isTrue();
    }

    @Test
    void aPlanPinnedToASnapshotReadsExactlyIt() {
        ScanContext pinned = resolve(Map.of()).withSnapshotId(first.snapshotId());
        assertThat(pinned.snapshotId()).isEqualTo(first.snapshotId());
        assertThat(pinned.mode()).isEqualTo(ReadMode.SNAPSHOT);
        assertThat(pinned.projectedSchema()).isEqualTo(resolve(Map.of()).projectedSchema());

        for (Map<String, String> other :
                List.of(
                        Map.of("streaming", "true"),
                        Map.of("snapshot-id", Long.toString(table.currentSnapshot().snapshotId())),
                        Map.of("branch", "main"))) {
            assertThatThrownBy(() -> resolve(other).withSnapshotId(first.snapshotId()))
                    .as("%s", other)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("remove them to read the current snapshot");
        }
    }

    @Test
    void explicitOptionsAreToldApartFromTheFlinkConfiguration() {
        Configuration conf = new Configuration();
        conf.setString(FlinkReadOptions.CONFIG_PREFIX + "split-size", "1024");
        ScanContext plan = ScanContext.resolve(Map.of("limit", "7"), conf, table, null, List.of());
        assertThat(plan.limit()).isEqualTo(7);
        assertThat(plan.splitSize()).isEqualTo(1024);
        assertThat(plan.isExplicit(FlinkReadOptions.LIMIT)).isTrue();
        assertThat(plan.isExplicit(FlinkReadOptions.SPLIT_SIZE)).isFalse();
        assertThat(plan.isExplicit(FlinkReadOptions.WATERMARK_COLUMN)).isFalse();
    }

    @Test
    void derivedPlansKeepTheResolvedOptionsAndChangeOnlyTheQuery() {
        ScanContext base = resolve(Map.of("split-size", "2048", "limit", "10"));
        Schema projection =
                new Schema(Types.NestedField.optional(9, "DATA", Types.StringType.get()));
        ScanContext derived =
                base.withCaseSensitive(false)
                        .withProjection(projection)
                        .withFilters(List.of(Expressions.greaterThan("id", 1L)))
                        .withLimit(4)
                        .withWatermarkColumn("ts");

        assertThat(derived.splitSize()).isEqualTo(2048);
        assertThat(derived.limit()).isEqualTo(4);
        assertThat(derived.caseSensitive()).isFalse();
        assertThat(derived.projectedSchema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("data");
        assertThat(derived.filters()).hasSize(1);
        assertThat(derived.watermarkColumn()).isEqualTo("ts");
        assertThat(derived.isExplicit(FlinkReadOptions.LIMIT)).isTrue();
        // the base plan is immutable
        assertThat(base.limit()).isEqualTo(10);
        assertThat(base.filters()).isEmpty();
        assertThat(base.watermarkColumn()).isNull();
    }

    @Test
    void derivedPlansAreValidatedNamingTheOptionOrColumn() {
        ScanContext base = resolve(Map.of());
        assertThatThrownBy(() -> base.withLimit(-2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'limit'")
                .hasMessageContaining("-2");
        assertThatThrownBy(() -> base.withWatermarkColumn("data"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'watermark-column' = 'data'")
                .hasMessageContaining("allowed are long, timestamp");
        ScanContext exact = base.withCaseSensitive(true);
        Schema upperCase =
                new Schema(Types.NestedField.optional(9, "DATA", Types.StringType.get()));
        assertThatThrownBy(() -> exact.withProjection(upperCase))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[DATA]")
                .hasMessageContaining("case-sensitive");
        assertThat(
                        base.withCaseSensitive(false)
                                .withProjection(upperCase)
                                .projectedSchema()
                                .columns())
                .extracting(Types.NestedField::name)
                .containsExactly("data");
        assertThatThrownBy(() -> base.withFilters(List.of(Expressions.equal("missing", 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit the table");
    }

    @Test
    void changelogModeIsResolvedFromEverySourceAndCheckedAgainstWhatExcludesIt() {
        assertThat(resolve(Map.of()).changelogMode()).isEqualTo(ChangelogReadMode.INSERT_ONLY);
        assertThat(resolve(Map.of("changelog-mode", "ALL")).readsChangelog()).isTrue();
        Configuration conf = new Configuration();
        conf.setString(FlinkReadOptions.CONFIG_PREFIX + "changelog-mode", "all");
        assertThat(ScanContext.resolve(Map.of(), conf, table, null, List.of()).readsChangelog())
                .isTrue();
        assertThatThrownBy(() -> resolve(Map.of("changelog-mode", "upsert")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'changelog-mode' = 'upsert' is not a changelog mode; use one of"
                                + " 'insert-only', 'all'");
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of(
                                                "changelog-mode",
                                                "all",
                                                "streaming-skip-delete-snapshots",
                                                "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'streaming-skip-delete-snapshots' skips the snapshots");
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of(
                                                "changelog-mode",
                                                "all",
                                                "snapshot-id",
                                                Long.toString(first.snapshotId()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be combined with time travel");
    }
}
