package dev.icebergflink.table.options;

import dev.icebergflink.table.FlinkConfigOptions;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the switches that ask Iceberg's own connector for its legacy source or sink ({@code
 * table.exec.iceberg.use-flip27-source}, {@code table.exec.iceberg.use-v2-sink}).
 *
 * <p>It exists because this connector has only the FLIP-27 source and the Sink V2 sink: {@code
 * true} is accepted silently, {@code false} is accepted and logged once per JVM as a warning, so
 * that users moving from Apache Iceberg's connector learn that the setting does nothing instead of
 * getting a silently different implementation.
 */
@Internal
public final class LegacySwitches {

    private static final Logger LOG = LoggerFactory.getLogger(LegacySwitches.class);

    private static final AtomicBoolean SOURCE_WARNED = new AtomicBoolean();
    private static final AtomicBoolean SINK_WARNED = new AtomicBoolean();

    private LegacySwitches() {}

    /**
     * Checks {@code table.exec.iceberg.use-flip27-source}.
     *
     * @return the warning when the setting asks for the legacy source, else empty
     */
    public static Optional<String> checkSource(ReadableConfig config) {
        return check(
                config,
                FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_FLIP27_SOURCE,
                "source",
                "the FLIP-27 IcebergSource",
                SOURCE_WARNED);
    }

    /**
     * Checks {@code table.exec.iceberg.use-v2-sink}.
     *
     * @return the warning when the setting asks for the legacy sink, else empty
     */
    public static Optional<String> checkSink(ReadableConfig config) {
        return check(
                config,
                FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_V2_SINK,
                "sink",
                "the Sink V2 IcebergSink",
                SINK_WARNED);
    }

    private static Optional<String> check(
            ReadableConfig config,
            ConfigOption<Boolean> option,
            String what,
            String implementation,
            AtomicBoolean warned) {
        if (config == null || config.get(option)) {
            return Optional.empty();
        }
        String warning =
                String.format(
                        "'%s' = false is ignored: this Iceberg connector has no legacy %s and"
                                + " always uses %s",
                        option.key(), what, implementation);
        if (warned.compareAndSet(false, true)) {
            LOG.warn(warning);
        }
        return Optional.of(warning);
    }
}
