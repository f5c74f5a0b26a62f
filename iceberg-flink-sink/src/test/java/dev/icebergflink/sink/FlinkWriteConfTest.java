package dev.icebergflink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionValidation;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.junit.jupiter.api.Test;

class FlinkWriteConfTest {

    @Test
    void defaultsWithoutAnySource() {
        FlinkWriteConf conf = FlinkWriteConf.resolve(Map.of(), null, Map.of());
        assertThat(conf.format()).isEqualTo(FileFormat.PARQUET);
        assertThat(conf.targetFileSizeBytes()).isEqualTo(512L * 1024 * 1024);
        assertThat(conf.upsert()).isFalse();
        assertThat(conf.overwrite()).isFalse();
        assertThat(conf.distributionMode()).isEqualTo(DistributionMode.NONE);
        assertThat(conf.branch()).isEqualTo("main");
        assertThat(conf.writeParallelism()).isNull();
        assertThat(conf.uidSuffix()).isEmpty();
        assertThat(conf.upsertKeyMemoryBytes()).isEqualTo(16L << 20);
        assertThat(conf.upsertSpillDirectory()).isNull();
        assertThat(conf.writeProperties())
                .containsEntry("write.format.default", "parquet")
                .containsEntry("write.target-file-size-bytes", "536870912")
                .doesNotContainKey("write.parquet.compression-codec");
    }

    @Test
    void rowGroupSizesBoundDeleteFilesAndUpsertDataFilesUnlessTheTableSetsThem() {
        FlinkWriteConf defaults = FlinkWriteConf.resolve(Map.of(), null, Map.of());
        // delete files of every writer: 4 MB; data files of upsert and changelog writers: 16 MB;
        // data files of appends: the table's (Iceberg's default of 128 MB)
        assertThat(defaults.writeProperties())
                .isSameAs(defaults.writeProperties(true))
                .containsEntry("write.delete.parquet.row-group-size-bytes", "4194304")
                .doesNotContainKey("write.parquet.row-group-size-bytes");
        assertThat(defaults.writeProperties(false))
                .containsEntry("write.delete.parquet.row-group-size-bytes", "4194304")
                .containsEntry("write.parquet.row-group-size-bytes", "16777216");

        // a table that sets its row group sizes keeps them
        FlinkWriteConf tableSet =
                FlinkWriteConf.resolve(
                        Map.of(),
                        null,
                        Map.of(
                                "write.parquet.row-group-size-bytes", "67108864",
                                "write.delete.parquet.row-group-size-bytes", "1048576"));
        assertThat(tableSet.writeProperties(false))
                .containsEntry("write.parquet.row-group-size-bytes", "67108864")
                .containsEntry("write.delete.parquet.row-group-size-bytes", "1048576");

        // the options win over the table properties, the Flink configuration sets them job-wide
        Configuration flink = new Configuration();
        flink.setString("delete-row-group-size-bytes", "2097152");
        FlinkWriteConf optionSet =
                FlinkWriteConf.resolve(
                        Map.of("upsert-row-group-size-bytes", "8388608"),
                        flink,
                        Map.of(
                                "write.parquet.row-group-size-bytes", "67108864",
                                "write.delete.parquet.row-group-size-bytes", "1048576"));
        assertThat(optionSet.writeProperties(false))
                .containsEntry("write.parquet.row-group-size-bytes", "8388608")
                .containsEntry("write.delete.parquet.row-group-size-bytes", "2097152");

        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of(),
                                        null,
                                        Map.of("write.delete.parquet.row-group-size-bytes", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'delete-row-group-size-bytes'")
                .hasMessageContaining("'write.delete.parquet.row-group-size-bytes'")
                .hasMessageContaining("positive number of bytes");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("upsert-row-group-size-bytes", "-1"),
                                        null,
                                        Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid value -1 for option 'upsert-row-group-size-bytes'");
    }

    @Test
    void tableRefreshIntervalIsOffByDefaultAndMustBePositive() {
        assertThat(FlinkWriteConf.resolve(Map.of(), null, Map.of()).tableRefreshInterval())
                .isNull();
        assertThat(
                        FlinkWriteConf.resolve(
                                        Map.of("table-refresh-interval", "30 s"), null, Map.of())
                                .tableRefreshInterval())
                .isEqualTo(java.time.Duration.ofSeconds(30));
        Configuration flink = new Configuration();
        flink.setString("table-refresh-interval", "1 min");
        assertThat(FlinkWriteConf.resolve(Map.of(), flink, Map.of()).tableRefreshInterval())
                .isEqualTo(java.time.Duration.ofMinutes(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("table-refresh-interval", "0 s"), null, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'table-refresh-interval'")
                .hasMessageContaining("positive duration");
    }

    @Test
    void overwriteLearnedLaterMakesACopyAndUpsertSaysWhereItWasSet() {
        FlinkWriteConf conf =
                FlinkWriteConf.resolve(Map.of(), null, Map.of("write.upsert.enabled", "true"));
        assertThat(conf.upsertEnabledBy()).isEqualTo("table property 'write.upsert.enabled'");
        FlinkWriteConf overwriting = conf.withOverwrite(true);
        assertThat(overwriting.overwrite()).isTrue();
        assertThat(conf.overwrite()).isFalse();
        assertThat(overwriting.withOverwrite(false)).isEqualTo(conf);
        assertThat(conf.withOverwrite(false)).isSameAs(conf);
        assertThat(
                        FlinkWriteConf.resolve(Map.of("upsert-enabled", "true"), null, Map.of())
                                .upsertEnabledBy())
                .isEqualTo("option 'upsert-enabled'");
    }

    @Test
    void optionWinsOverFlinkConfigurationWhichWinsOverTableProperty() {
        Map<String, String> table =
                Map.of(
                        "write.format.default", "avro",
                        "write.target-file-size-bytes", "100",
                        "write.distribution-mode", "hash",
                        "write.upsert.enabled", "true");
        Configuration flink = new Configuration();
        flink.setString("write-format", "orc");
        flink.setString("target-file-size-bytes", "200");

        FlinkWriteConf fromTable = FlinkWriteConf.resolve(Map.of(), null, table);
        assertThat(fromTable.format()).isEqualTo(FileFormat.AVRO);
        assertThat(fromTable.targetFileSizeBytes()).isEqualTo(100);
        assertThat(fromTable.distributionMode()).isEqualTo(DistributionMode.HASH);
        assertThat(fromTable.upsert()).isTrue();

        FlinkWriteConf fromFlink = FlinkWriteConf.resolve(Map.of(), flink, table);
        assertThat(fromFlink.format()).isEqualTo(FileFormat.ORC);
        assertThat(fromFlink.targetFileSizeBytes()).isEqualTo(200);

        FlinkWriteConf fromOption =
                FlinkWriteConf.resolve(
                        Map.of(
                                "write-format", "PARQUET",
                                "target-file-size-bytes", "300",
                                "upsert-enabled", "false",
                                "distribution-mode", "none"),
                        flink,
                        table);
        assertThat(fromOption.format()).isEqualTo(FileFormat.PARQUET);
        assertThat(fromOption.targetFileSizeBytes()).isEqualTo(300);
        assertThat(fromOption.upsert()).isFalse();
        assertThat(fromOption.distributionMode()).isEqualTo(DistributionMode.NONE);
    }

    @Test
    void compressionFallsBackToThePropertyOfTheFormatWritten() {
        Map<String, String> table =
                Map.of(
                        "write.orc.compression-codec", "zlib",
                        "write.parquet.compression-codec", "gzip",
                        "write.parquet.compression-level", "5",
                        "write.orc.compression-strategy", "compression");
        FlinkWriteConf orc = FlinkWriteConf.resolve(Map.of("write-format", "orc"), null, table);
        assertThat(orc.writeProperties())
                .containsEntry("write.orc.compression-codec", "zlib")
                .containsEntry("write.orc.compression-strategy", "compression")
                .doesNotContainKey("write.parquet.compression-level");

        FlinkWriteConf parquet =
                FlinkWriteConf.resolve(Map.of("compression-codec", "ZSTD"), null, table);
        assertThat(parquet.writeProperties())
                .containsEntry("write.parquet.compression-codec", "zstd")
                .containsEntry("write.parquet.compression-level", "5");

        FlinkWriteConf avro =
                FlinkWriteConf.resolve(
                        Map.of("write-format", "avro", "compression-level", "3"), null, Map.of());
        assertThat(avro.writeProperties()).containsEntry("write.avro.compression-level", "3");
    }

    @Test
    void optionOnlyKeysIgnoreTheFlinkConfiguration() {
        Configuration flink = new Configuration();
        flink.setString("branch", "other");
        flink.setString("write-parallelism", "7");
        FlinkWriteConf conf = FlinkWriteConf.resolve(Map.of(), flink, Map.of());
        assertThat(conf.branch()).isEqualTo("main");
        assertThat(conf.writeParallelism()).isNull();

        FlinkWriteConf set =
                FlinkWriteConf.resolve(
                        Map.of("branch", "b1", "write-parallelism", "3", "uid-suffix", "s"),
                        flink,
                        Map.of());
        assertThat(set.branch()).isEqualTo("b1");
        assertThat(set.writeParallelism()).isEqualTo(3);
        assertThat(set.uidSuffix()).isEqualTo("s");
    }

    @Test
    void badValuesNameTheOptionTheSourceAndTheAllowedValues() {
        assertThatThrownBy(
                        () -> FlinkWriteConf.resolve(Map.of("write-format", "csv"), null, Map.of()))
                .hasMessageContaining("'csv'")
                .hasMessageContaining("'write-format'")
                .hasMessageContaining("parquet, orc, avro");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of(), null, Map.of("write.format.default", "json")))
                .hasMessageContaining("table property 'write.format.default'");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("distribution-mode", "random"), null, Map.of()))
                .hasMessageContaining("distribution-mode")
                .hasMessageContaining("none, hash, range");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("target-file-size-bytes", "0"), null, Map.of()))
                .hasMessageContaining("target-file-size-bytes");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("target-file-size-bytes", "big"), null, Map.of()))
                .hasMessageContaining("target-file-size-bytes");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("write-parallelism", "0"), null, Map.of()))
                .hasMessageContaining("write-parallelism");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("write-format", "orc", "compression-codec", "gzip"),
                                        null,
                                        Map.of()))
                .hasMessageContaining("compression-codec")
                .hasMessageContaining("zlib");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("compression-strategy", "fast"), null, Map.of()))
                .hasMessageContaining("speed, compression");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("upsert-enabled", "yes"), null, Map.of()))
                .hasMessageContaining("upsert-enabled");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("upsert-key-memory", "512 bytes"), null, Map.of()))
                .hasMessageContaining("'upsert-key-memory'")
                .hasMessageContaining("at least 1 kb");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("upsert-key-memory", "lots"), null, Map.of()))
                .hasMessageContaining("upsert-key-memory")
                .hasMessageContaining("memory size");
        assertThatThrownBy(
                        () ->
                                FlinkWriteConf.resolve(
                                        Map.of("upsert-spill-directory", " "), null, Map.of()))
                .hasMessageContaining("'upsert-spill-directory'")
                .hasMessageContaining("local directory");
    }

    @Test
    void everyOptionIsDescribedAndKnown() {
        List<ConnectorOption<?>> all = FlinkWriteOptions.all();
        assertThat(all).hasSize(23);
        for (ConnectorOption<?> option : all) {
            assertThat(new HtmlFormatter().format(option.configOption().description()))
                    .as(option.key())
                    .isNotBlank();
        }
        assertThat(OptionValidation.validKeys(all))
                .contains(
                        "write-format",
                        "target-file-size-bytes",
                        "compression-codec",
                        "compression-level",
                        "compression-strategy",
                        "upsert-enabled",
                        "upsert-unique-keys",
                        "upsert-key-memory",
                        "upsert-spill-directory",
                        "upsert-row-group-size-bytes",
                        "delete-row-group-size-bytes",
                        "overwrite-enabled",
                        "distribution-mode",
                        "branch",
                        "write-parallelism",
                        "uid-suffix",
                        "flink-maintenance.rewrite.enabled",
                        "compaction-enabled",
                        "flink-maintenance.expire-snapshots.enabled",
                        "flink-maintenance.delete-orphan-files.enabled",
                        "flink-maintenance.convert-equality-deletes.enabled");
        assertThat(FlinkWriteOptions.BRANCH.flinkConfigKey()).isEmpty();
        assertThat(FlinkWriteOptions.WRITE_PARALLELISM.flinkConfigKey()).isEmpty();
        assertThat(FlinkWriteOptions.UPSERT_UNIQUE_KEYS.flinkConfigKey()).isEmpty();
        assertThat(FlinkWriteOptions.UPSERT_UNIQUE_KEYS.tableProperty()).isEmpty();
    }
}
