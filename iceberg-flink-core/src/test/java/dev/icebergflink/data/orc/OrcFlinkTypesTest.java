package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.FormatFlinkTypesSuite;
import java.math.BigDecimal;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The shared Flink-types suite for ORC, and the ORC writer's error messages. */
class OrcFlinkTypesTest extends FormatFlinkTypesSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.ORC;
    }

    @Test
    void rejectsAFlinkTypeThatDoesNotFitTheColumnNamingIt() {
        Schema schema =
                new Schema(
                        optional(
                                1,
                                "outer",
                                Types.StructType.of(optional(2, "when", Types.DateType.get()))));
        RowType rowType = RowType.of(RowType.of(new IntType()));

        assertThatThrownBy(() -> files.writeRows(files.newFile(dir), schema, rowType, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outer.when")
                .hasMessageContaining("INT")
                .hasMessageContaining("date");
    }

    @Test
    void rejectsADecimalThatDoesNotFitNamingTheColumn() {
        Schema schema = new Schema(optional(1, "price", Types.DecimalType.of(4, 2)));
        RowType rowType = RowType.of(new DecimalType(4, 2));
        RowData tooWide =
                GenericRowData.of(DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2));

        assertThatThrownBy(
                        () ->
                                files.writeRows(
                                        files.newFile(dir), schema, rowType, List.of(tooWide)))
                .hasMessageContaining("price")
                .hasMessageContaining("123.45");
    }
}
