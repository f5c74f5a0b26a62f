package dev.icebergflink.options;

import static dev.icebergflink.options.TestingOptions.BUFFER;
import static dev.icebergflink.options.TestingOptions.MODE;
import static dev.icebergflink.options.TestingOptions.MONITOR_INTERVAL;
import static dev.icebergflink.options.TestingOptions.REWRITE;
import static dev.icebergflink.options.TestingOptions.SPLIT_SIZE;
import static dev.icebergflink.options.TestingOptions.STREAMING;
import static dev.icebergflink.options.TestingOptions.WORKERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.options.TestingOptions.Mode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

class OptionResolverTest {

    @Test
    void precedenceIsExplicitThenFlinkConfigurationThenTablePropertyThenDefault() {
        // Every combination of the three sources, for an option without and one with a default.
        for (int mask = 0; mask < 8; mask++) {
            boolean explicit = (mask & 1) != 0;
            boolean flink = (mask & 2) != 0;
            boolean table = (mask & 4) != 0;
            Map<String, String> options = new HashMap<>();
            Configuration conf = new Configuration();
            Map<String, String> properties = new HashMap<>();
            if (explicit) {
                options.put("split-size", "100");
                options.put("worker-pool-size", "10");
            }
            if (flink) {
                conf.setString("connector.iceberg.split-size", "200");
                conf.setString("table.exec.iceberg.worker-pool-size", "20");
            }
            if (table) {
                properties.put("read.split.target-size", "300");
                properties.put("read.worker-pool-size", "30");
            }
            OptionResolver resolver = new OptionResolver(options, conf, properties);

            Long expectedSplit =
                    explicit
                            ? Long.valueOf(100)
                            : flink ? Long.valueOf(200) : table ? Long.valueOf(300) : null;
            int expectedWorkers = explicit ? 10 : flink ? 20 : table ? 30 : 4;
            OptionSource expectedSource =
                    explicit
                            ? OptionSource.OPTION
                            : flink
                                    ? OptionSource.FLINK_CONFIGURATION
                                    : table ? OptionSource.TABLE_PROPERTY : OptionSource.DEFAULT;
            String combination = "explicit=" + explicit + ", flink=" + flink + ", table=" + table;
            assertThat(resolver.get(SPLIT_SIZE)).as(combination).isEqualTo(expectedSplit);
            assertThat(resolver.getOptional(SPLIT_SIZE))
                    .as(combination)
                    .isEqualTo(Optional.ofNullable(expectedSplit));
            assertThat(resolver.get(WORKERS)).as(combination).isEqualTo(expectedWorkers);
            assertThat(resolver.sourceOf(WORKERS)).as(combination).isEqualTo(expectedSource);
            assertThat(resolver.getOptional(WORKERS).isPresent())
                    .as(combination)
                    .isEqualTo(explicit || flink || table);
        }
    }

    @Test
    void optionOnlyOptionsIgnoreFlinkConfigurationAndTableProperties() {
        Configuration conf = new Configuration();
        conf.setString("streaming", "true");
        conf.setString("connector.iceberg.streaming", "true");
        OptionResolver resolver = new OptionResolver(Map.of(), conf, Map.of("streaming", "true"));

        assertThat(resolver.get(STREAMING)).isFalse();
        assertThat(resolver.getOptional(STREAMING)).isEmpty();
        assertThat(new OptionResolver(Map.of("streaming", "TRUE"), conf, Map.of()).get(STREAMING))
                .isTrue();
    }

    @Test
    void optionsWithoutAFlinkKeyOrTablePropertySkipThoseSources() {
        Configuration conf = new Configuration();
        conf.setString("write-buffer", "1 gb");
        assertThat(new OptionResolver(Map.of(), conf, Map.of()).get(BUFFER))
                .isEqualTo(MemorySize.parse("32 mb"));
        assertThat(
                        new OptionResolver(
                                        Map.of(),
                                        new Configuration(),
                                        Map.of("monitor-interval", "1 s"))
                                .get(MONITOR_INTERVAL))
                .isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void parsesEverySupportedTypeWithFlinksParsers() {
        Map<String, String> options = new HashMap<>();
        options.put("split-size", "134217728");
        options.put("worker-pool-size", "8");
        options.put("streaming", "true");
        options.put("monitor-interval", "5 min");
        options.put("write-buffer", "128 mb");
        options.put("distribution-mode", "range");
        OptionResolver resolver = new OptionResolver(options, new Configuration(), Map.of());

        assertThat(resolver.get(SPLIT_SIZE)).isEqualTo(134217728L);
        assertThat(resolver.get(WORKERS)).isEqualTo(8);
        assertThat(resolver.get(STREAMING)).isTrue();
        assertThat(resolver.get(MONITOR_INTERVAL)).isEqualTo(Duration.ofMinutes(5));
        assertThat(resolver.get(BUFFER)).isEqualTo(MemorySize.ofMebiBytes(128));
        assertThat(resolver.get(MODE)).isEqualTo(Mode.RANGE);
    }

    @Test
    void tablePropertiesAndFlinkConfigurationAreParsedTheSameWay() {
        Configuration conf = new Configuration();
        conf.setString("connector.iceberg.monitor-interval", "30 s");
        conf.setString("connector.iceberg.distribution-mode", "Hash");
        OptionResolver resolver =
                new OptionResolver(
                        Map.of(),
                        conf,
                        Map.of("write.buffer-size", "2 gb", "read.split.target-size", "1024"));

        assertThat(resolver.get(MONITOR_INTERVAL)).isEqualTo(Duration.ofSeconds(30));
        assertThat(resolver.get(MODE)).isEqualTo(Mode.HASH);
        assertThat(resolver.get(BUFFER)).isEqualTo(MemorySize.parse("2 gb"));
        assertThat(resolver.get(SPLIT_SIZE)).isEqualTo(1024L);
    }

    @Test
    void flinkConfigurationValuesSetAsObjectsAreRead() {
        Configuration conf = new Configuration();
        conf.set(
                ConfigOptions.key("connector.iceberg.monitor-interval")
                        .durationType()
                        .noDefaultValue(),
                Duration.ofMillis(1500));
        conf.set(
                ConfigOptions.key("connector.iceberg.distribution-mode")
                        .enumType(Mode.class)
                        .noDefaultValue(),
                Mode.RANGE);
        conf.set(
                ConfigOptions.key("connector.iceberg.split-size").longType().noDefaultValue(), 64L);
        OptionResolver resolver = new OptionResolver(Map.of(), conf, Map.of());

        assertThat(resolver.get(MONITOR_INTERVAL)).isEqualTo(Duration.ofMillis(1500));
        assertThat(resolver.get(MODE)).isEqualTo(Mode.RANGE);
        assertThat(resolver.get(SPLIT_SIZE)).isEqualTo(64L);
    }

    @Test
    void fallbackKeysAreAcceptedButTheMainKeyWins() {
        assertThat(
                        new OptionResolver(
                                        Map.of("compaction-enabled", "true"),
                                        new Configuration(),
                                        Map.of())
                                .get(REWRITE))
                .isTrue();
        assertThat(
                        new OptionResolver(
                                        Map.of(
                                                "compaction-enabled",
                                                "true",
                                                "flink-maintenance.rewrite.enabled",
                                                "false"),
                                        new Configuration(),
                                        Map.of())
                                .get(REWRITE))
                .isFalse();
    }

    @Test
    void nullSourcesMeanEmptySources() {
        OptionResolver resolver = new OptionResolver(null, null, null);

        assertThat(resolver.get(WORKERS)).isEqualTo(4);
        assertThat(resolver.get(SPLIT_SIZE)).isNull();
        assertThat(resolver.getOptional(SPLIT_SIZE)).isEmpty();
    }

    @Test
    void badExplicitValueNamesTheOptionTheValueAndTheExpectedForm() {
        OptionResolver resolver =
                new OptionResolver(Map.of("split-size", "12 MB"), new Configuration(), Map.of());

        assertThatThrownBy(() -> resolver.get(SPLIT_SIZE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value '12 MB' for option 'split-size' set by option 'split-size':"
                                + " expected a whole number (long), e.g. 134217728");
    }

    @Test
    void badFlinkConfigurationValueNamesTheConfigurationKey() {
        Configuration conf = new Configuration();
        conf.setString("table.exec.iceberg.worker-pool-size", "many");
        OptionResolver resolver = new OptionResolver(Map.of(), conf, Map.of());

        assertThatThrownBy(() -> resolver.get(WORKERS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid value 'many'")
                .hasMessageContaining("option 'worker-pool-size'")
                .hasMessageContaining(
                        "set by Flink configuration key 'table.exec.iceberg.worker-pool-size'"
                                + " (for option 'worker-pool-size')")
                .hasMessageContaining("expected an integer");
    }

    @Test
    void badTablePropertyNamesTheProperty() {
        OptionResolver resolver =
                new OptionResolver(
                        Map.of(), new Configuration(), Map.of("write.distribution-mode", "random"));

        assertThatThrownBy(() -> resolver.get(MODE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value 'random' for option 'distribution-mode' set by table"
                                + " property 'write.distribution-mode' (for option"
                                + " 'distribution-mode'): expected one of [NONE, HASH, RANGE]"
                                + " (case-insensitive)");
    }

    @Test
    void badValuesOfEveryTypeExplainTheExpectedForm() {
        assertBad(STREAMING, "yes", "expected true or false");
        assertBad(MONITOR_INTERVAL, "often", "expected a duration with a unit, e.g. '500 ms'");
        assertBad(BUFFER, "lots", "expected a memory size with a unit, e.g. '64 kb'");
        assertBad(WORKERS, "3000000000", "expected an integer from -2147483648 to 2147483647");
        assertBad(MODE, "", "expected one of [NONE, HASH, RANGE]");
    }

    @Test
    void aBadValueFailsEvenWhenALaterSourceHasAGoodOne() {
        Configuration conf = new Configuration();
        conf.setString("connector.iceberg.split-size", "200");
        OptionResolver resolver =
                new OptionResolver(
                        Map.of("split-size", "big"), conf, Map.of("read.split.target-size", "300"));

        assertThatThrownBy(() -> resolver.get(SPLIT_SIZE))
                .hasMessageContaining("'big'")
                .hasMessageContaining("set by option 'split-size'");
    }

    @Test
    void explicitOptionsAreCopied() {
        Map<String, String> options = new HashMap<>(Map.of("worker-pool-size", "2"));
        OptionResolver resolver = new OptionResolver(options, new Configuration(), Map.of());
        options.put("worker-pool-size", "3");

        assertThat(resolver.get(WORKERS)).isEqualTo(2);
    }

    private static void assertBad(ConnectorOption<?> option, String value, String expectation) {
        OptionResolver resolver =
                new OptionResolver(Map.of(option.key(), value), new Configuration(), Map.of());
        assertThatThrownBy(() -> resolver.get(option))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid value '" + value + "'")
                .hasMessageContaining("option '" + option.key() + "'")
                .hasMessageContaining(expectation);
    }
}
