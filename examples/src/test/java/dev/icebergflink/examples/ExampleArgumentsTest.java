package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import java.nio.file.Paths;
import java.time.Duration;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class ExampleArgumentsTest {

    private static ExampleArguments parse(String... args) {
        return ExampleArguments.parse("Example", args, "events", "checkpoint-interval");
    }

    @Test
    void defaultsToAHadoopCatalogUnderTheLocalWarehouseDirectory() {
        ExampleArguments arguments = parse();

        CatalogLoader loader = arguments.catalogLoader();

        assertThat(loader.type()).isEqualTo("hadoop");
        assertThat(loader.name()).isEqualTo("examples");
        assertThat(loader.properties())
                .containsEntry(
                        "warehouse", Paths.get("warehouse").toAbsolutePath().toUri().toString());
        assertThat(arguments.table("db.events")).isEqualTo(TableIdentifier.of("db", "events"));
        assertThat(arguments.parallelism()).isEmpty();
    }

    @Test
    void resolvesRelativeLocalWarehousesAndKeepsUris() {
        assertThat(parse("--warehouse", "file:./wh").catalogOptions())
                .containsEntry("warehouse", Paths.get("wh").toAbsolutePath().toUri().toString());
        assertThat(parse("--warehouse", "hdfs://nn:8020/wh").catalogOptions())
                .containsEntry("warehouse", "hdfs://nn:8020/wh");
        assertThat(parse("--warehouse", "s3://bucket/wh").catalogOptions())
                .containsEntry("warehouse", "s3://bucket/wh");
    }

    @Test
    void buildsRestHiveAndJdbcCatalogsWithPassThroughProperties() {
        CatalogLoader rest =
                parse(
                                "--catalog-type", "rest",
                                "--uri", "http://127.0.0.1:8181",
                                "--catalog.io-impl", "org.apache.iceberg.hadoop.HadoopFileIO",
                                "--catalog-name", "lake")
                        .catalogLoader();
        assertThat(rest.type()).isEqualTo("rest");
        assertThat(rest.name()).isEqualTo("lake");
        assertThat(rest.properties())
                .containsEntry("uri", "http://127.0.0.1:8181")
                .containsEntry("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO")
                .doesNotContainKey("warehouse");

        CatalogLoader hive =
                parse("--catalog-type", "hive", "--uri", "thrift://127.0.0.1:9083").catalogLoader();
        assertThat(hive.type()).isEqualTo("hive");

        CatalogLoader jdbc =
                parse(
                                "--catalog-type", "jdbc",
                                "--uri", "jdbc:postgresql://127.0.0.1/db",
                                "--warehouse", "file:/tmp/wh",
                                "--catalog.jdbc.user", "me")
                        .catalogLoader();
        assertThat(jdbc.implementation()).isEqualTo("org.apache.iceberg.jdbc.JdbcCatalog");
        assertThat(jdbc.properties()).containsEntry("jdbc.user", "me");

        CatalogLoader custom =
                parse("--catalog.catalog-impl", "org.example.MyCatalog").catalogLoader();
        assertThat(custom.implementation()).isEqualTo("org.example.MyCatalog");
    }

    @Test
    void parsesTypedValues() {
        ExampleArguments arguments =
                parse("--events", "42", "--checkpoint-interval", "500ms", "--parallelism", "3");

        assertThat(arguments.getLong("events", 0)).isEqualTo(42);
        assertThat(arguments.getDuration("checkpoint-interval", Duration.ZERO))
                .isEqualTo(Duration.ofMillis(500));
        assertThat(arguments.parallelism()).hasValue(3);
    }

    @Test
    void rejectsMalformedUnknownRepeatedAndInvalidArguments() {
        assertThatThrownBy(() -> parse("events", "1"))
                .hasMessageContaining(
                        "Example: expected an argument '--key value' but got 'events'");
        assertThatThrownBy(() -> parse("--evnts", "1"))
                .hasMessageContaining("unknown argument '--evnts'")
                .hasMessageContaining("--events, --checkpoint-interval");
        assertThatThrownBy(() -> parse("--events"))
                .hasMessageContaining("argument '--events' needs a value");
        assertThatThrownBy(() -> parse("--events", "1", "--events", "2"))
                .hasMessageContaining("'--events' is given twice");
        assertThatThrownBy(() -> parse("--events", "many").getLong("events", 0))
                .hasMessageContaining("'--events' must be a whole number")
                .hasMessageContaining("'many'");
        assertThatThrownBy(() -> parse("--parallelism", "0").parallelism())
                .hasMessageContaining("'--parallelism' must be a whole number from 1");
        assertThatThrownBy(() -> parse("--table", "events").table("db.t"))
                .hasMessageContaining("a table name with its database");
        assertThatThrownBy(() -> parse("--catalog-type", "glue").catalogLoader())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("unknown 'catalog-type'='glue'");
    }
}
