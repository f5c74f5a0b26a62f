package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.api.MaintenanceOptions;
import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.table.FlinkConfigOptions;
import dev.icebergflink.table.lookup.LookupJoinOptions;
import dev.icebergflink.table.options.ConnectorTableOptions;
import dev.icebergflink.table.options.FlinkCatalogOptions;
import dev.icebergflink.table.options.PartitionTerms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/configuration.md}, the reference of every option, generated from the options'
 * own {@link ConfigOption} descriptions. It fails when the document is stale; run it with {@code
 * -Ddocs.regenerate=true} to rewrite the document.
 */
class ConfigurationReferenceTest {

    private static final Path DOCUMENT =
            Paths.get(System.getProperty("maven.multiModuleProjectDirectory", ".."))
                    .resolve("docs/configuration.md");

    @Test
    void referenceDocumentMatchesTheOptions() throws Exception {
        String expected = render();
        Path document = DOCUMENT.toAbsolutePath().normalize();
        if (Boolean.getBoolean("docs.regenerate") || !Files.exists(document)) {
            Files.createDirectories(document.getParent());
            Files.writeString(document, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(document, StandardCharsets.UTF_8))
                .as(
                        "%s is stale: run ./mvnw -pl examples -am test -Dtest=ConfigurationReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.regenerate=true",
                        document)
                .isEqualTo(expected);
    }

    @Test
    void everyOptionHasADescription() {
        List<ConfigOption<?>> all = new java.util.ArrayList<>();
        FlinkReadOptions.ALL.forEach(o -> all.add(o.configOption()));
        FlinkWriteOptions.all().forEach(o -> all.add(o.configOption()));
        MaintenanceOptions.all().forEach(o -> all.add(o.configOption()));
        LookupJoinOptions.ALL.forEach(o -> all.add(o.configOption()));
        all.addAll(FlinkCatalogOptions.ALL);
        all.addAll(FlinkConfigOptions.ALL);
        all.addAll(ConnectorTableOptions.CONNECTOR_OPTIONS);
        all.add(ConnectorTableOptions.WRITE_OPERATION);
        assertThat(all)
                .allSatisfy(
                        option ->
                                assertThat(new HtmlFormatter().format(option.description()))
                                        .as(option.key())
                                        .isNotBlank());
    }

    static String render() {
        StringBuilder doc = new StringBuilder();
        doc.append("# Configuration reference\n\n")
                .append("Generated from the options' own descriptions by ")
                .append("`ConfigurationReferenceTest`; do not edit by hand.\n\n")
                .append("Read and write options resolve in this order: the builder call or SQL ")
                .append("hint, then the Flink configuration key, then the Iceberg table ")
                .append("property, then the default.\n\n");
        connectorOptions(doc, "Read options (`IcebergSource`, SQL hints)", FlinkReadOptions.ALL);
        connectorOptions(
                doc,
                "Write options (`IcebergSink`, `FlinkSink`, SQL hints)",
                FlinkWriteOptions.all());
        connectorOptions(
                doc,
                "Maintenance after the sink's commits (`flink-maintenance.*`: write options,"
                        + " SQL hints, Flink configuration)",
                MaintenanceOptions.all());
        connectorOptions(
                doc,
                "Lookup join options (SQL hints, `'connector'='iceberg'` tables;"
                        + " see [sql-lookup.md](sql-lookup.md))",
                LookupJoinOptions.ALL);
        configOptions(
                doc,
                "Catalog options (`CREATE CATALOG ... WITH ('type'='iceberg', ...)`)",
                FlinkCatalogOptions.ALL);
        configOptions(
                doc,
                "Connector table options (`'connector'='iceberg'`)",
                List.of(
                        ConnectorTableOptions.CATALOG_NAME,
                        ConnectorTableOptions.CATALOG_DATABASE,
                        ConnectorTableOptions.CATALOG_TABLE,
                        ConnectorTableOptions.LOCATION,
                        PartitionTerms.PARTITIONING,
                        ConnectorTableOptions.WRITE_OPERATION));
        configOptions(doc, "Flink configuration (`SET ...`)", FlinkConfigOptions.ALL);
        return doc.toString();
    }

    private static void connectorOptions(
            StringBuilder doc, String title, List<ConnectorOption<?>> options) {
        doc.append("## ")
                .append(title)
                .append("\n\n")
                .append(
                        "| option | Flink configuration | table property | default | description |\n")
                .append("|---|---|---|---|---|\n");
        for (ConnectorOption<?> option : options) {
            doc.append("| `")
                    .append(option.key())
                    .append("` | ")
                    .append(option.flinkConfigKey().map(k -> "`" + k + "`").orElse("–"))
                    .append(" | ")
                    .append(option.tableProperty().map(p -> "`" + p + "`").orElse("–"))
                    .append(" | ")
                    .append(defaultOf(option.configOption()))
                    .append(" | ")
                    .append(describe(option.configOption()))
                    .append(" |\n");
        }
        doc.append('\n');
    }

    private static void configOptions(
            StringBuilder doc, String title, List<? extends ConfigOption<?>> options) {
        doc.append("## ")
                .append(title)
                .append("\n\n")
                .append("| option | default | description |\n")
                .append("|---|---|---|\n");
        for (ConfigOption<?> option : options) {
            doc.append("| `")
                    .append(option.key())
                    .append("` | ")
                    .append(defaultOf(option))
                    .append(" | ")
                    .append(describe(option))
                    .append(" |\n");
        }
        doc.append('\n');
    }

    private static String defaultOf(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return "(none)";
        }
        Object value = option.defaultValue();
        String text =
                value instanceof Duration
                        ? TimeUtils.formatWithHighestUnit((Duration) value)
                        : String.valueOf(value);
        return "`" + text + "`";
    }

    private static String describe(ConfigOption<?> option) {
        return new HtmlFormatter()
                .format(option.description())
                .replace("|", "\\|")
                .replace("\n", " ");
    }
}
