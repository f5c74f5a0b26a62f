package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.source.FlinkReadOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.TableProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Misspelt Iceberg table property names are recognised with the name they were meant to be, while
 * every real Iceberg property name, the connector's own keys, catalog property names and custom
 * keys that are not near a known name pass.
 */
class TablePropertyNamesTest {

    @Test
    void noStringConstantOfTablePropertiesIsTakenForAMisspelling() throws Exception {
        List<String> constants = stringConstants(TableProperties.class);
        assertThat(constants).hasSizeGreaterThan(100).contains("write.upsert.enabled");
        for (String constant : constants) {
            assertThat(TablePropertyNames.misspellingOf(constant)).as(constant).isEmpty();
        }
        TablePropertyNames.check("Cannot create 't'", constants);
    }

    @Test
    void keysUnderAnIcebergPrefixAreKnown() {
        assertThat(TablePropertyNames.isKnown("write.metadata.metrics.column.user_id")).isTrue();
        assertThat(TablePropertyNames.isKnown("write.parquet.bloom-filter-enabled.column.id"))
                .isTrue();
        assertThat(TablePropertyNames.misspellingOf("write.metadata.metrics.column.colour"))
                .isEmpty();
    }

    @Test
    void theConnectorsOwnKeysAndCatalogPropertiesPass() throws Exception {
        List<String> keys = new ArrayList<>(stringConstants(CatalogProperties.class));
        for (ConnectorOption<?> option : FlinkWriteOptions.all()) {
            keys.add(option.key());
        }
        for (ConnectorOption<?> option : FlinkReadOptions.ALL) {
            keys.add(option.key());
        }
        keys.addAll(
                List.of(
                        "flink.max-continuous-empty-commits",
                        "flink.manifests.location",
                        "location",
                        "comment"));
        for (String key : keys) {
            assertThat(TablePropertyNames.misspellingOf(key)).as(key).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource({
        "write.upsert.enabeld, write.upsert.enabled",
        "format-verison, format-version",
        "Format-Version, format-version",
        "formatversion, format-version",
        "write.format.defualt, write.format.default",
        "write.format.defaults, write.format.default",
        "write.target-file-size-byte, write.target-file-size-bytes",
        "write.distribution-mod, write.distribution-mode",
        "write.parquet.compresion-codec, write.parquet.compression-codec",
        "commit.retry.num-retires, commit.retry.num-retries",
        "gc.enabeld, gc.enabled",
        "flink.max-continuous-empty-commit, flink.max-continuous-empty-commits",
        "upsert-enabeld, upsert-enabled",
    })
    void misspellingsAreRecognisedWithTheRealName(String misspelt, String real) {
        assertThat(TablePropertyNames.misspellingOf(misspelt)).contains(real);
        assertThatThrownBy(
                        () -> TablePropertyNames.check("Cannot create 'db.t'", List.of(misspelt)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Cannot create 'db.t'")
                .hasMessageContaining("'" + misspelt + "' (did you mean '" + real + "'?)");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "owner",
                "team",
                "Owner",
                "data-classification",
                "retention.days",
                "source-system",
                "my.custom.property",
                "write.audit.enabled",
                "format-version-note",
                "commit.author",
                "pii",
                "x"
            })
    void customKeysThatAreNotNearAKnownNamePass(String custom) {
        assertThat(TablePropertyNames.misspellingOf(custom)).isEmpty();
        TablePropertyNames.check("Cannot create 't'", Map.of(custom, "v"));
    }

    @Test
    void everyMisspeltKeyIsNamedInOneError() {
        assertThatThrownBy(
                        () ->
                                TablePropertyNames.check(
                                        "Cannot alter table 'db.t'",
                                        Map.of(
                                                "format-verison", "2",
                                                "owner", "me",
                                                "write.upsert.enabeld", "true")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'format-verison' (did you mean 'format-version'?)")
                .hasMessageContaining(
                        "'write.upsert.enabeld' (did you mean 'write.upsert.enabled'?)")
                .hasMessageNotContaining("owner");
    }

    @Test
    void distanceCountsATranspositionAsOneEdit() {
        assertThat(TablePropertyNames.distance("enabeld", "enabled", 2)).isEqualTo(1);
        assertThat(TablePropertyNames.distance("Enabled", "enabled", 2)).isZero();
        assertThat(TablePropertyNames.distance("abc", "xyz", 1)).isEqualTo(2);
        assertThat(TablePropertyNames.distance("abc", "xyz", 5)).isEqualTo(3);
    }

    private static List<String> stringConstants(Class<?> type) throws IllegalAccessException {
        List<String> values = new ArrayList<>();
        for (Field field : type.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                String value = (String) field.get(null);
                if (value != null) { // a few *_DEFAULT constants have no default
                    values.add(value);
                }
            }
        }
        return values;
    }
}
