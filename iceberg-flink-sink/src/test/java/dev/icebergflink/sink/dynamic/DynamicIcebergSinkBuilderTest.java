package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** What the dynamic sink's builder refuses, and how it says so. */
class DynamicIcebergSinkBuilderTest {

    private static final CatalogLoader CATALOG =
            CatalogLoader.hadoop(
                    "w",
                    new org.apache.hadoop.conf.Configuration(),
                    Map.of("warehouse", "file:///tmp/dynamic-builder-test"));

    private static DynamicIcebergSink.Builder<Long> builder() {
        return DynamicIcebergSink.forInput(
                        StreamExecutionEnvironment.getExecutionEnvironment().fromData(1L))
                .generator((value, out) -> {})
                .catalogLoader(CATALOG);
    }

    private static void refused(
            UnaryOperator<DynamicIcebergSink.Builder<Long>> change, String... message) {
        assertThatThrownBy(() -> change.apply(builder()).settings())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(message);
    }

    @Test
    void requiresAGeneratorAndACatalog() {
        refused(b -> b.generator(null), "generator(...)");
        refused(b -> b.catalogLoader(null), "catalogLoader(...)");
    }

    @Test
    void refusesSizesOutOfRange() {
        refused(b -> b.cacheMaxSize(0), "cacheMaxSize", "at least 1", "0");
        refused(b -> b.cacheRefreshMs(-1), "cacheRefreshMs", "negative");
        refused(b -> b.inputSchemasPerTableCacheMaxSize(0), "inputSchemasPerTableCacheMaxSize");
        refused(b -> b.maxOpenWriters(0), "maxOpenWriters", "at least 1");
        refused(b -> b.writeParallelism(0), "writeParallelism", "at least 1");
        refused(b -> b.uidPrefix(" "), "uidPrefix");
    }

    @Test
    void refusesOptionsDecidedPerRecordUnknownKeysAndBadValues() {
        refused(
                b -> b.set("upsert-enabled", "true"),
                "'upsert-enabled'",
                "DynamicRecord.setUpsertMode");
        refused(b -> b.set("distribution-mode", "hash"), "'distribution-mode'");
        refused(b -> b.set("table-refresh-interval", "1 s"), "cacheRefreshMs");
        refused(b -> b.set("write-fromat", "orc"), "write-fromat");
        refused(b -> b.set("target-file-size-bytes", "big"), "target-file-size-bytes");
    }

    @Test
    void acceptsWriteOptionsAndKeepsTheDefaults() {
        DynamicSinkSettings settings =
                builder().set("write-format", "orc").setSnapshotProperty("app", "sync").settings();
        assertThat(settings.writeOptions()).containsEntry("write-format", "orc");
        assertThat(settings.snapshotProperties()).containsEntry("app", "sync");
        assertThat(settings.defaultBranch()).isEqualTo("main");
        assertThat(settings.cacheMaxSize()).isEqualTo(100);
        assertThat(settings.cacheRefreshMs()).isEqualTo(1000);
        assertThat(settings.maxOpenWriters()).isEqualTo(100);
        assertThat(settings.caseSensitive()).isTrue();
        assertThat(settings.immediateTableUpdate()).isFalse();
    }

    @Test
    void theIncompatibleRecordsStreamNeedsTheSideOutputAndTheSinkInTheJob() {
        assertThatThrownBy(() -> builder().incompatibleRecords())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("incompatibleRecordsToSideOutput(true)");
        assertThatThrownBy(
                        () -> builder().incompatibleRecordsToSideOutput(true).incompatibleRecords())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("append()");
    }
}
