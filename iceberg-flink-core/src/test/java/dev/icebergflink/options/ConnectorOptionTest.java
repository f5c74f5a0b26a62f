package dev.icebergflink.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.junit.jupiter.api.Test;

class ConnectorOptionTest {

    @Test
    void exposesItsSources() {
        ConnectorOption<Long> option = TestingOptions.SPLIT_SIZE;

        assertThat(option.key()).isEqualTo("split-size");
        assertThat(option.valueType()).isEqualTo(Long.class);
        assertThat(option.flinkConfigKey()).contains("connector.iceberg.split-size");
        assertThat(option.tableProperty()).contains("read.split.target-size");
        assertThat(option.hasDefaultValue()).isFalse();
        assertThat(option.defaultValue()).isNull();
        assertThat(option.alternativeKeys()).isEmpty();
        assertThat(TestingOptions.REWRITE.alternativeKeys()).containsExactly("compaction-enabled");
        assertThat(TestingOptions.STREAMING.flinkConfigKey()).isEmpty();
        assertThat(TestingOptions.STREAMING.tableProperty()).isEmpty();
        assertThat(option.toString())
                .isEqualTo(
                        "ConnectorOption{key=split-size, type=Long,"
                                + " flinkConfigKey=connector.iceberg.split-size,"
                                + " tableProperty=read.split.target-size}");
    }

    @Test
    void everyOptionNeedsADescription() {
        ConfigOption<Integer> undescribed = ConfigOptions.key("x").intType().defaultValue(1);

        assertThatThrownBy(() -> ConnectorOption.builder(undescribed, Integer.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Option 'x' has no description");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void theDeclaredTypeMustMatchTheDefault() {
        ConfigOption intOption =
                ConfigOptions.key("x").intType().defaultValue(1).withDescription("An x.");

        assertThatThrownBy(() -> ConnectorOption.builder(intOption, Long.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Option 'x' has a default of type java.lang.Integer");
    }

    @Test
    void blankKeysAreRejected() {
        ConfigOption<Integer> option =
                ConfigOptions.key("x").intType().defaultValue(1).withDescription("An x.");

        assertThatThrownBy(() -> ConnectorOption.builder(option, Integer.class).flinkConfigKey(""))
                .hasMessageContaining("Flink configuration key");
        assertThatThrownBy(() -> ConnectorOption.builder(option, Integer.class).tableProperty(" "))
                .hasMessageContaining("table property");
    }

    @Test
    void withTablePropertyPointsTheFallbackElsewhere() {
        ConnectorOption<String> codec =
                ConnectorOption.builder(
                                ConfigOptions.key("compression-codec")
                                        .stringType()
                                        .noDefaultValue()
                                        .withDescription("Codec of new data files."),
                                String.class)
                        .flinkConfigKey("connector.iceberg.compression-codec")
                        .tableProperty("write.parquet.compression-codec")
                        .build();

        ConnectorOption<String> orc = codec.withTableProperty("write.orc.compression-codec");

        assertThat(orc.tableProperty()).contains("write.orc.compression-codec");
        assertThat(orc.flinkConfigKey()).isEqualTo(codec.flinkConfigKey());
        assertThat(orc.configOption()).isSameAs(codec.configOption());
        assertThat(orc).isNotEqualTo(codec);
        assertThat(orc).isEqualTo(codec.withTableProperty("write.orc.compression-codec"));
        assertThat(
                        new OptionResolver(
                                        Map.of(),
                                        new Configuration(),
                                        Map.of(
                                                "write.parquet.compression-codec", "zstd",
                                                "write.orc.compression-codec", "zlib"))
                                .get(orc))
                .isEqualTo("zlib");
    }

    @Test
    void sampleOptionsAreAllDescribed() {
        List<ConnectorOption<?>> all = TestingOptions.ALL;
        assertThat(all)
                .allSatisfy(
                        option ->
                                assertThat(
                                                new HtmlFormatter()
                                                        .format(
                                                                option.configOption()
                                                                        .description()))
                                        .isNotBlank());
    }
}
