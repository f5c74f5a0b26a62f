package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.table.FlinkConfigOptions;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.junit.jupiter.api.Test;

class ConnectorTableOptionsTest {

    private static final ObjectIdentifier ID =
            ObjectIdentifier.of("default_catalog", "default_database", "flink_table");

    @Test
    void splitsConnectorCatalogEngineAndTablePropertyKeys() {
        ConnectorTableOptions.Parsed parsed =
                ConnectorTableOptions.parse(
                        ID,
                        Map.of(
                                "connector", "iceberg",
                                "catalog-name", "hive_prod",
                                "uri", "thrift://localhost:9083",
                                "warehouse", "hdfs://nn:8020/path/to/warehouse",
                                "streaming", "true",
                                "scan.parallelism", "3",
                                "write.format.default", "orc",
                                "io-impl", "org.example.IO"));
        assertThat(parsed.catalog().catalogName()).isEqualTo("hive_prod");
        assertThat(parsed.catalog().catalogType()).isEqualTo("hive");
        assertThat(parsed.catalog().catalogProperties())
                .containsEntry("uri", "thrift://localhost:9083")
                .containsEntry("io-impl", "org.example.IO")
                .doesNotContainKeys("streaming", "catalog-name", "connector");
        assertThat(parsed.database()).isEqualTo("default_database");
        assertThat(parsed.table()).isEqualTo("flink_table");
        assertThat(parsed.engineOptions())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("streaming", "true", "scan.parallelism", "3"));
        assertThat(parsed.tableProperties())
                .containsExactlyInAnyOrderEntriesOf(Map.of("write.format.default", "orc"));
        assertThat(SqlOptions.readOptions(parsed.engineOptions()))
                .containsExactlyInAnyOrderEntriesOf(Map.of("streaming", "true"));

        ConnectorTableOptions.Parsed mapped =
                ConnectorTableOptions.parse(
                        ID,
                        Map.of(
                                "connector", "iceberg",
                                "catalog-name", "c",
                                "catalog-type", "hadoop",
                                "warehouse", "file:///tmp/w",
                                "catalog-database", "hive_db",
                                "catalog-table", "hive_iceberg_table"));
        assertThat(mapped.database()).isEqualTo("hive_db");
        assertThat(mapped.table()).isEqualTo("hive_iceberg_table");
        assertThat(mapped.catalog().catalogType()).isEqualTo("hadoop");
    }

    @Test
    void alibabasWriteOperationIsAnEngineOptionAndItsSyncOptionsAreRejected() {
        ConnectorTableOptions.Parsed parsed =
                ConnectorTableOptions.parse(
                        ID,
                        Map.of(
                                "connector", "iceberg",
                                "catalog-name", "dlf",
                                "catalog-impl", "org.apache.iceberg.aliyun.dlf.DlfCatalog",
                                "dlf.catalog-id", "12345",
                                "write.operation", "upsert"));
        assertThat(parsed.engineOptions()).containsEntry("write.operation", "upsert");
        assertThat(parsed.tableProperties()).doesNotContainKey("write.operation");
        assertThat(parsed.catalog().catalogProperties()).containsEntry("dlf.catalog-id", "12345");

        assertThatThrownBy(
                        () ->
                                ConnectorTableOptions.parse(
                                        ID,
                                        Map.of(
                                                "connector", "iceberg",
                                                "catalog-name", "c",
                                                "hive_sync.enable", "true",
                                                "dlf.catalog.region", "cn-hangzhou")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'dlf.catalog.region', 'hive_sync.enable'")
                .hasMessageContaining("Hive catalog ('catalog-type'='hive'")
                .hasMessageContaining("remove the options");
        assertThatThrownBy(
                        () ->
                                SqlOptions.hintsOf(
                                        "c.db.t", Map.of("hive_sync.mode", "hms"), Map.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'hive_sync.mode' synchronises table metadata");
    }

    @Test
    void unknownReservedAndMisspeltKeysFailListingTheValidOnes() {
        assertThatThrownBy(
                        () ->
                                ConnectorTableOptions.parse(
                                        ID, Map.of("connector", "iceberg", "warehouse", "x")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'catalog-name' is required");
        assertThatThrownBy(
                        () ->
                                ConnectorTableOptions.parse(
                                        ID,
                                        Map.of(
                                                "connector", "iceberg",
                                                "catalog-name", "c",
                                                "catalog-owner", "me",
                                                "monitor-intervall", "1s")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'catalog-owner'")
                .hasMessageContaining("'monitor-intervall' (did you mean 'monitor-interval'?)")
                .hasMessageContaining("catalog-database, catalog-impl, catalog-name");
        assertThatThrownBy(
                        () ->
                                ConnectorTableOptions.parse(
                                        ID,
                                        Map.of(
                                                "connector", "iceberg",
                                                "catalog-name", "c",
                                                "catalog-type", "jdbc")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("unknown 'catalog-type'='jdbc'");
    }

    @Test
    void misspeltIcebergTablePropertiesFailNamingTheRealName() {
        assertThatThrownBy(
                        () ->
                                ConnectorTableOptions.parse(
                                        ID,
                                        Map.of(
                                                "connector", "iceberg",
                                                "catalog-name", "c",
                                                "catalog-type", "hadoop",
                                                "warehouse", "file:///tmp/w",
                                                "write.upsert.enabeld", "true")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(
                        "'write.upsert.enabeld' (did you mean 'write.upsert.enabled'?)");
        ConnectorTableOptions.Parsed parsed =
                ConnectorTableOptions.parse(
                        ID,
                        Map.of(
                                "connector", "iceberg",
                                "catalog-name", "c",
                                "catalog-type", "hadoop",
                                "warehouse", "file:///tmp/w",
                                "write.upsert.enabled", "true",
                                "owner", "data-team"));
        assertThat(parsed.tableProperties()).containsEntry("write.upsert.enabled", "true");
    }

    @Test
    void hintsOfCatalogTablesAreTheOptionsThatAreNotTableProperties() {
        Map<String, String> tableOptions =
                Map.of("write.format.default", "parquet", "format-version", "2");
        Map<String, String> hints =
                SqlOptions.hintsOf(
                        "c.db.t",
                        Map.of(
                                "write.format.default", "parquet",
                                "format-version", "2",
                                "streaming", "true",
                                "monitor-interval", "1s"),
                        tableOptions);
        assertThat(hints)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("streaming", "true", "monitor-interval", "1s"));
        assertThatThrownBy(
                        () ->
                                SqlOptions.hintsOf(
                                        "c.db.t", Map.of("split-sise", "10"), tableOptions))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Table c.db.t")
                .hasMessageContaining("'split-sise' (did you mean 'split-size'?)")
                .hasMessageContaining("Valid options are:");
    }

    @Test
    void legacySwitchesWarnOnFalseOnly() {
        Configuration config = new Configuration();
        assertThat(LegacySwitches.checkSource(config)).isEmpty();
        assertThat(LegacySwitches.checkSink(config)).isEmpty();
        config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_FLIP27_SOURCE, false);
        config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_V2_SINK, false);
        assertThat(LegacySwitches.checkSource(config))
                .hasValueSatisfying(
                        warning ->
                                assertThat(warning)
                                        .contains("table.exec.iceberg.use-flip27-source")
                                        .contains("FLIP-27 IcebergSource"));
        assertThat(LegacySwitches.checkSink(config))
                .hasValueSatisfying(
                        warning -> assertThat(warning).contains("table.exec.iceberg.use-v2-sink"));
    }
}
