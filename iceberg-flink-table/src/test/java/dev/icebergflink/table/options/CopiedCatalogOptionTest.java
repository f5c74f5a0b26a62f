package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class CopiedCatalogOptionTest {

    private static final CatalogSettings LAKE =
            CatalogSettings.parse(
                    "lake",
                    Map.of(
                            "type", "iceberg",
                            "catalog-type", "rest",
                            "uri", "http://127.0.0.1:8181",
                            "credential-secret", "client:very-secret",
                            "base-namespace", "prod.lake",
                            "default-database", "db",
                            "cache-enabled", "false"));

    private static Map<String, String> copiedTable(String instance, Map<String, String> extra) {
        Map<String, String> options =
                new LinkedHashMap<>(CopiedCatalogOption.reported(instance, LAKE, "db", "events"));
        options.put("write.format.default", "orc");
        options.putAll(extra);
        return options;
    }

    @Test
    void reportsTheConnectorAndTheConnectionWithoutSecrets() {
        Map<String, String> reported = CopiedCatalogOption.reported("i-1", LAKE, "db", "events");

        assertThat(reported).containsEntry("connector", "iceberg").containsKey("src-catalog");
        assertThat(reported.get("src-catalog"))
                .contains("\"catalog-name\":\"lake\"", "\"catalog-table\":\"events\"")
                .contains("\"base-namespace\":\"prod.lake\"", "\"uri\":\"http://127.0.0.1:8181\"")
                .doesNotContain("very-secret", "cache-enabled", "default-database");
        assertThat(CopiedCatalogOption.isReported("connector", "iceberg")).isTrue();
        assertThat(CopiedCatalogOption.isReported("connector", "datagen")).isFalse();
        assertThat(CopiedCatalogOption.withoutReported(copiedTable("i-1", Map.of())))
                .containsOnlyKeys("write.format.default");
    }

    @Test
    void anOpenCatalogLendsItsLoaderAndTheOptionsParseAsAConnectorTable() {
        CatalogLoader loader =
                CatalogLoader.hadoop("lake", new Configuration(), Map.of("warehouse", "/tmp/w"));
        String instance = CopiedCatalogOption.newInstanceId();
        CopiedCatalogOption.register(instance, loader);
        try {
            CopiedCatalogOption.Expanded expanded =
                    CopiedCatalogOption.expand("t", copiedTable(instance, Map.of()));

            assertThat(expanded.liveLoader()).isSameAs(loader);
            assertThat(expanded.options()).doesNotContainKey("src-catalog");
            assertThat(expanded.copied())
                    .contains("uri", "catalog-name")
                    .doesNotContain("connector");
            ConnectorTableOptions.Parsed parsed =
                    ConnectorTableOptions.parse(
                            ObjectIdentifier.of("default_catalog", "default_database", "copy"),
                            expanded.options());
            assertThat(parsed.catalog().catalogName()).isEqualTo("lake");
            assertThat(parsed.catalog().baseNamespace().levels()).containsExactly("prod", "lake");
            assertThat(parsed.database()).isEqualTo("db");
            assertThat(parsed.table()).isEqualTo("events");
        } finally {
            CopiedCatalogOption.unregister(instance);
        }
    }

    @Test
    void withoutTheCatalogAMaskedSecretMustBeGivenByTheTable() {
        String gone = CopiedCatalogOption.newInstanceId();

        assertThatThrownBy(() -> CopiedCatalogOption.expand("t", copiedTable(gone, Map.of())))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'credential'")
                .hasMessageContaining("not open in this session")
                .hasMessageContaining("ALTER TABLE t SET ('credential'='...')");

        CopiedCatalogOption.Expanded given =
                CopiedCatalogOption.expand(
                        "t", copiedTable(gone, Map.of("credential", "client:typed")));
        assertThat(given.liveLoader()).isNull();
        assertThat(given.options()).containsEntry("credential", "client:typed");

        assertThatThrownBy(
                        () ->
                                CopiedCatalogOption.expand(
                                        "t", Map.of("connector", "iceberg", "src-catalog", "{")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(
                        "option 'src-catalog' is not what an Iceberg catalog reports");
    }
}
