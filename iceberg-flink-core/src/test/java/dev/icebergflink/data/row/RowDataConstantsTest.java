package dev.icebergflink.data.row;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.UUIDUtil;
import org.junit.jupiter.api.Test;

/** Constants arrive in Iceberg's internal representation or already as Flink values. */
class RowDataConstantsTest {

    @Test
    void convertsIcebergInternalValues() {
        assertThat(RowDataConstants.convert(Types.StringType.get(), "x"))
                .isEqualTo(StringData.fromString("x"));
        assertThat(RowDataConstants.convert(Types.DecimalType.of(5, 2), new BigDecimal("1.50")))
                .isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("1.50"), 5, 2));
        assertThat(
                        RowDataConstants.convert(
                                Types.BinaryType.get(), ByteBuffer.wrap(new byte[] {1, 2})))
                .isEqualTo(new byte[] {1, 2});
        UUID uuid = UUID.randomUUID();
        assertThat(RowDataConstants.convert(Types.UUIDType.get(), uuid))
                .isEqualTo(UUIDUtil.convert(uuid));
        assertThat(RowDataConstants.convert(Types.DateType.get(), LocalDate.of(1970, 1, 3)))
                .isEqualTo(2);
        assertThat(RowDataConstants.convert(Types.TimeType.get(), 1_234_567L)).isEqualTo(1_234);
        assertThat(RowDataConstants.convert(Types.TimestampType.withoutZone(), -1L))
                .isEqualTo(
                        TimestampData.fromLocalDateTime(
                                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)));
        assertThat(RowDataConstants.convert(Types.TimestampNanoType.withZone(), -1L))
                .isEqualTo(TimestampData.fromEpochMillis(-1L, 999_999));
    }

    @Test
    void keepsFlinkValuesAndUnknownFields() {
        StringData flink = StringData.fromString("already");
        Schema schema = new Schema(optional(1, "s", Types.StringType.get()));

        Map<Integer, Object> converted =
                RowDataConstants.convertAll(schema, Map.of(1, flink, 99, "raw"));

        assertThat(converted.get(1)).isSameAs(flink);
        assertThat(converted.get(99)).isEqualTo("raw");
        assertThat(RowDataConstants.convert(Types.TimeType.get(), 5)).isEqualTo(5);
    }
}
