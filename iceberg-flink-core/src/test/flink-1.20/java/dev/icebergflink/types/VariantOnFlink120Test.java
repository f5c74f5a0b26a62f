package dev.icebergflink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.compat.FlinkVariants;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * On Flink 1.20, which has no VARIANT type, an Iceberg variant column fails the type mapping with a
 * message naming the column and the Flink version it needs; other columns are unaffected.
 */
class VariantOnFlink120Test {

    @Test
    void variantColumnsNameTheColumnAndTheFlinkVersion() {
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "id", Types.IntegerType.get()),
                        Types.NestedField.optional(
                                2,
                                "s",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                3, "payload", Types.VariantType.get()))));

        assertThat(FlinkVariants.available()).isFalse();
        assertThatThrownBy(() -> FlinkSchemaUtil.convert(schema))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageContaining("Column 's.payload'")
                .hasMessageContaining("VARIANT")
                .hasMessageContaining("Flink 2.1 or later");
        assertThat(FlinkSchemaUtil.convert(schema.select("id")).getFieldCount()).isEqualTo(1);
    }
}
