package dev.icebergflink.table.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlWriteSettingsTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));

    @TempDir Path dir;

    private Table table(String name, PartitionSpec spec, Map<String, String> properties) {
        return new HadoopTables(new org.apache.hadoop.conf.Configuration())
                .create(SCHEMA, spec, properties, dir.resolve(name).toUri().toString());
    }

    @Test
    void optionsResolveHintThenFlinkConfigurationThenTableProperty() {
        Table table =
                table(
                        "t",
                        PartitionSpec.unpartitioned(),
                        Map.of("write.format.default", "avro", "format-version", "2"));
        Configuration config = new Configuration();
        assertThat(resolve(Map.of(), config, table, List.of()).writeConf().format())
                .isEqualTo(FileFormat.AVRO);
        config.set(
                org.apache.flink.configuration.ConfigOptions.key("write-format")
                        .stringType()
                        .noDefaultValue(),
                "orc");
        assertThat(resolve(Map.of(), config, table, List.of()).writeConf().format())
                .isEqualTo(FileFormat.ORC);
        SqlWriteSettings hinted =
                resolve(
                        Map.of("write-format", "parquet", "streaming", "true"),
                        config,
                        table,
                        List.of());
        assertThat(hinted.writeConf().format()).isEqualTo(FileFormat.PARQUET);
        assertThat(hinted.writeOptions())
                .as("read options are not write options")
                .containsOnlyKeys("write-format");
    }

    @Test
    void sinkParallelismIsWriteParallelism() {
        Table table = table("t", PartitionSpec.unpartitioned(), Map.of());
        SqlWriteSettings settings =
                resolve(Map.of("sink.parallelism", "3"), new Configuration(), table, List.of());
        assertThat(settings.writeParallelism()).isEqualTo(3);
        assertThat(settings.writeOptions()).containsEntry("write-parallelism", "3");
        assertThat(
                        resolve(
                                        Map.of("sink.parallelism", "3", "write-parallelism", "3"),
                                        new Configuration(),
                                        table,
                                        List.of())
                                .writeParallelism())
                .isEqualTo(3);
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of("sink.parallelism", "3", "write-parallelism", "2"),
                                        new Configuration(),
                                        table,
                                        List.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'write-parallelism'='2'")
                .hasMessageContaining("'sink.parallelism'='3'");
    }

    @Test
    void upsertComesFromTablePropertyAndNeedsKeyVersionAndPartitionColumns() {
        Table upsertTable =
                table(
                        "u",
                        PartitionSpec.unpartitioned(),
                        Map.of("format-version", "2", "write.upsert.enabled", "true"));
        SqlWriteSettings settings =
                resolve(Map.of(), new Configuration(), upsertTable, List.of("id"));
        assertThat(settings.upsert()).isTrue();
        assertThat(settings.upsertEnabledBy()).isEqualTo("table property 'write.upsert.enabled'");
        assertThat(
                        resolve(
                                        Map.of("upsert-enabled", "false"),
                                        new Configuration(),
                                        upsertTable,
                                        List.of())
                                .upsert())
                .as("a hint turns upsert off")
                .isFalse();
        assertThatThrownBy(() -> resolve(Map.of(), new Configuration(), upsertTable, List.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("no PRIMARY KEY");

        Table v1 = table("v1", PartitionSpec.unpartitioned(), Map.of("format-version", "1"));
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of("upsert-enabled", "true"),
                                        new Configuration(),
                                        v1,
                                        List.of("id")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'upsert-enabled'")
                .hasMessageContaining("format v1");

        Table parted =
                table(
                        "p",
                        PartitionSpec.builderFor(SCHEMA).identity("data").build(),
                        Map.of("format-version", "2"));
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of("upsert-enabled", "true"),
                                        new Configuration(),
                                        parted,
                                        List.of("id")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("column(s) [data]");
    }

    @Test
    void invalidValuesAreValidationErrors() {
        Table table = table("t", PartitionSpec.unpartitioned(), Map.of());
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of("distribution-mode", "random"),
                                        new Configuration(),
                                        table,
                                        List.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("distribution-mode")
                .hasMessageContaining("random");
    }

    @Test
    void writeOperationStandsForUpsertEnabledAtItsLevel() {
        Table table = table("t", PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
        SqlWriteSettings upsert =
                resolve(
                        Map.of("write.operation", "upsert"),
                        new Configuration(),
                        table,
                        List.of("id"));
        assertThat(upsert.upsert()).isTrue();
        assertThat(upsert.bulkInsert()).isFalse();
        assertThat(upsert.upsertEnabledBy()).isEqualTo("option 'write.operation'='upsert'");
        assertThat(upsert.writeOptions()).containsEntry("upsert-enabled", "true");

        SqlWriteSettings bulk =
                resolve(
                        Map.of("write.operation", "BULK_INSERT"),
                        new Configuration(),
                        table,
                        List.of("id"));
        assertThat(bulk.upsert()).isFalse();
        assertThat(bulk.bulkInsert()).isTrue();

        Table upsertByProperty =
                table(
                        "p",
                        PartitionSpec.unpartitioned(),
                        Map.of("format-version", "2", "write.operation", "upsert"));
        SqlWriteSettings byProperty =
                resolve(Map.of(), new Configuration(), upsertByProperty, List.of("id"));
        assertThat(byProperty.upsert()).isTrue();
        assertThat(byProperty.upsertEnabledBy())
                .isEqualTo("table property 'write.operation'='upsert'");
        assertThat(
                        resolve(
                                        Map.of("upsert-enabled", "false"),
                                        new Configuration(),
                                        upsertByProperty,
                                        List.of("id"))
                                .upsert())
                .as("an option wins over the table property, as for write.upsert.enabled")
                .isFalse();
        assertThat(
                        resolve(
                                        Map.of("write.operation", "insert"),
                                        new Configuration(),
                                        upsertByProperty,
                                        List.of("id"))
                                .upsert())
                .isFalse();
        assertThatThrownBy(
                        () -> resolve(Map.of(), new Configuration(), upsertByProperty, List.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("table property 'write.operation'='upsert'")
                .hasMessageContaining("no PRIMARY KEY");
    }

    @Test
    void badOrContradictingWriteOperationsAreRejected() {
        Table table = table("t", PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of("write.operation", "merge"),
                                        new Configuration(),
                                        table,
                                        List.of("id")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("invalid value 'merge' for option 'write.operation'")
                .hasMessageContaining("'upsert', 'insert', 'bulk_insert'");
        assertThatThrownBy(
                        () ->
                                resolve(
                                        Map.of(
                                                "write.operation",
                                                "insert",
                                                "upsert-enabled",
                                                "true"),
                                        new Configuration(),
                                        table,
                                        List.of("id")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'write.operation'='insert'")
                .hasMessageContaining("'upsert-enabled'='true'")
                .hasMessageContaining("disagree");
        Table contradicting =
                table(
                        "c",
                        PartitionSpec.unpartitioned(),
                        Map.of(
                                "format-version",
                                "2",
                                "write.operation",
                                "bulk_insert",
                                "write.upsert.enabled",
                                "true"));
        assertThatThrownBy(
                        () -> resolve(Map.of(), new Configuration(), contradicting, List.of("id")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("table property 'write.operation'='bulk_insert'")
                .hasMessageContaining("table property 'write.upsert.enabled'='true'");
    }

    private static SqlWriteSettings resolve(
            Map<String, String> options,
            Configuration config,
            Table table,
            List<String> primaryKey) {
        return SqlWriteSettings.resolve("cat.db.t", options, config, table, primaryKey);
    }
}
