package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CREATE TABLE ... WITH} and {@code ALTER TABLE ... SET} in an Iceberg catalog reject keys
 * that look like misspelt Iceberg table properties, naming the real property, and leave the catalog
 * unchanged; custom properties and {@code RESET} of a misspelt key stored earlier pass.
 */
class MisspeltTablePropertiesTest {

    @TempDir Path warehouse;

    private TableEnvironment env;
    private Catalog iceberg;

    @BeforeEach
    void setUp() {
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(
                String.format(
                        "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                                + " 'warehouse'='%s')",
                        warehouse.toUri()));
        env.executeSql("USE CATALOG lake");
        iceberg =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
    }

    @Test
    void createTableWithAMisspeltPropertyFailsAndCreatesNothing() {
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "CREATE TABLE t (id INT) WITH"
                                                + " ('write.upsert.enabeld'='true',"
                                                + " 'owner'='data-team')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("ValidationException")
                                        .contains(
                                                "'write.upsert.enabeld' (did you mean"
                                                        + " 'write.upsert.enabled'?)")
                                        .contains("Cannot create 'lake.default.t'"));
        assertThat(iceberg.tableExists(TableIdentifier.of("default", "t"))).isFalse();
    }

    @Test
    void metadataSyncOptionsOfAlibabasConnectorAreRejectedAndChangeNothing() {
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "CREATE TABLE t (id INT) WITH ('hive_sync.enable'='true')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Cannot create 'lake.default.t'")
                                        .contains("option 'hive_sync.enable' synchronises"));
        assertThat(iceberg.tableExists(TableIdentifier.of("default", "t"))).isFalse();

        env.executeSql("CREATE TABLE t (id INT)");
        Map<String, String> before = table("t").properties();
        assertThatThrownBy(() -> env.executeSql("ALTER TABLE t SET ('dlf.catalog.endpoint'='x')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Cannot alter table 'lake.default.t'")
                                        .contains("'dlf.catalog.endpoint'"));
        assertThat(table("t").properties()).isEqualTo(before);
    }

    @Test
    void createTableWithCustomPropertiesStoresThem() {
        env.executeSql(
                "CREATE TABLE t (id INT) WITH ('format-version'='2', 'owner'='data-team',"
                        + " 'retention.days'='30')");
        assertThat(table("t").properties())
                .containsEntry("owner", "data-team")
                .containsEntry("retention.days", "30");
    }

    @Test
    void alterTableSetOfAMisspeltPropertyFailsAndChangesNothing() {
        env.executeSql("CREATE TABLE t (id INT) WITH ('format-version'='2')");
        Map<String, String> before = table("t").properties();

        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "ALTER TABLE t SET ('format-verison'='3',"
                                                + " 'owner'='me')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "'format-verison' (did you mean"
                                                        + " 'format-version'?)")
                                        .contains("Cannot alter table 'lake.default.t'"));

        Table after = table("t");
        assertThat(after.properties()).isEqualTo(before);
        assertThat(((org.apache.iceberg.HasTableOperations) after).operations().current())
                .extracting(metadata -> metadata.formatVersion())
                .isEqualTo(2);
    }

    @Test
    void alterTableSetOfCustomPropertiesAndResetOfAStoredMisspellingPass() {
        env.executeSql("CREATE TABLE t (id INT)");
        // A misspelt key stored by another engine can be removed.
        table("t").updateProperties().set("write.upsert.enabeld", "true").commit();

        env.executeSql("ALTER TABLE t SET ('owner'='me', 'write.upsert.enabled'='true')");
        env.executeSql("ALTER TABLE t RESET ('write.upsert.enabeld')");

        assertThat(table("t").properties())
                .containsEntry("owner", "me")
                .containsEntry("write.upsert.enabled", "true")
                .doesNotContainKey("write.upsert.enabeld");
    }

    private Table table(String name) {
        return iceberg.loadTable(TableIdentifier.of("default", name));
    }

    private static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            text.append(t.getClass().getSimpleName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return text.toString();
    }
}
