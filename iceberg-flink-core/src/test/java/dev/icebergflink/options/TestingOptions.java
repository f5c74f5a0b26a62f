package dev.icebergflink.options;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Sample option descriptors, one per supported value type, for resolver tests. */
final class TestingOptions {

    enum Mode {
        NONE,
        HASH,
        RANGE
    }

    /** No default, so that the table property can win. */
    static final ConnectorOption<Long> SPLIT_SIZE =
            ConnectorOption.builder(
                            ConfigOptions.key("split-size")
                                    .longType()
                                    .noDefaultValue()
                                    .withDescription("Target size of a split in bytes."),
                            Long.class)
                    .flinkConfigKey("connector.iceberg.split-size")
                    .tableProperty("read.split.target-size")
                    .build();

    /** Option-only: no Flink configuration key, no table property. */
    static final ConnectorOption<Boolean> STREAMING =
            ConnectorOption.builder(
                            ConfigOptions.key("streaming")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withDescription("Whether to read continuously."),
                            Boolean.class)
                    .build();

    static final ConnectorOption<Integer> WORKERS =
            ConnectorOption.builder(
                            ConfigOptions.key("worker-pool-size")
                                    .intType()
                                    .defaultValue(4)
                                    .withDescription("Threads for planning."),
                            Integer.class)
                    .flinkConfigKey("table.exec.iceberg.worker-pool-size")
                    .tableProperty("read.worker-pool-size")
                    .build();

    static final ConnectorOption<Duration> MONITOR_INTERVAL =
            ConnectorOption.builder(
                            ConfigOptions.key("monitor-interval")
                                    .durationType()
                                    .defaultValue(Duration.ofSeconds(60))
                                    .withDescription("How often to look for new snapshots."),
                            Duration.class)
                    .flinkConfigKey("connector.iceberg.monitor-interval")
                    .build();

    static final ConnectorOption<MemorySize> BUFFER =
            ConnectorOption.builder(
                            ConfigOptions.key("write-buffer")
                                    .memoryType()
                                    .defaultValue(MemorySize.parse("32 mb"))
                                    .withDescription("Memory for buffered rows."),
                            MemorySize.class)
                    .tableProperty("write.buffer-size")
                    .build();

    static final ConnectorOption<Mode> MODE =
            ConnectorOption.builder(
                            ConfigOptions.key("distribution-mode")
                                    .enumType(Mode.class)
                                    .defaultValue(Mode.NONE)
                                    .withDescription("How rows reach the writers."),
                            Mode.class)
                    .flinkConfigKey("connector.iceberg.distribution-mode")
                    .tableProperty("write.distribution-mode")
                    .build();

    /** An option with an older name that is still accepted. */
    static final ConnectorOption<Boolean> REWRITE =
            ConnectorOption.builder(
                            ConfigOptions.key("flink-maintenance.rewrite.enabled")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withFallbackKeys("compaction-enabled")
                                    .withDescription("Whether to compact after commits."),
                            Boolean.class)
                    .build();

    static final List<ConnectorOption<?>> ALL =
            List.of(SPLIT_SIZE, STREAMING, WORKERS, MONITOR_INTERVAL, BUFFER, MODE, REWRITE);

    private TestingOptions() {}
}
