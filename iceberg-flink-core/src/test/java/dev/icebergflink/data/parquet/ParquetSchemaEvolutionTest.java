package dev.icebergflink.data.parquet;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.FormatProjectionSuite;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The shared projection and schema evolution suite, for Parquet files, and the Parquet reader's
 * message for a missing required column.
 */
class ParquetSchemaEvolutionTest extends FormatProjectionSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.PARQUET;
    }

    @Test
    void missingRequiredNestedColumnIsAnErrorNamingItsPathAndId() {
        Schema evolved =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(
                                6,
                                "nested",
                                Types.StructType.of(
                                        required(50, "must", Types.IntegerType.get()))));

        assertThatThrownBy(() -> files.readRows(file, evolved))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nested.must")
                .hasMessageContaining("id 50");
    }
}
