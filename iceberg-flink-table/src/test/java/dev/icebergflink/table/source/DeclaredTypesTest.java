package dev.icebergflink.table.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.BinaryRowBuilder;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class DeclaredTypesTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(4, "f", Types.FloatType.get()),
                    Types.NestedField.optional(5, "amount", Types.DecimalType.of(10, 2)));

    @Test
    void narrowerAndWiderDeclarationsConvertValues() {
        RowType declared =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new TinyIntType(),
                            new VarCharType(10),
                            new TimestampType(3),
                            new DoubleType()
                        },
                        new String[] {"ID", "data", "ts", "f"});
        RowType icebergSide = DeclaredTypes.icebergSideType("t", declared, SCHEMA, false);
        assertThat(icebergSide.getTypeAt(0)).isEqualTo(new IntType());
        DeclaredRowDataConverter converter =
                new DeclaredRowDataConverter("t", icebergSide, declared);
        assertThat(converter.isIdentity()).isFalse();
        RowData converted =
                converter.convert(GenericRowData.of(7, StringData.fromString("x"), null, 1.5f));
        assertThat(converted.getByte(0)).isEqualTo((byte) 7);
        assertThat(converted.getString(1).toString()).isEqualTo("x");
        assertThat(converted.isNullAt(2)).isTrue();
        assertThat(converted.getDouble(3)).isEqualTo(1.5d);

        assertThatThrownBy(() -> converter.convert(GenericRowData.of(300, null, null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Column 'ID' holds 300")
                .hasMessageContaining("TINYINT");
    }

    @Test
    void sameTypesPassThrough() {
        RowType declared =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new IntType(), new DecimalType(10, 2)
                        },
                        new String[] {"id", "amount"});
        RowType icebergSide = DeclaredTypes.icebergSideType("t", declared, SCHEMA, true);
        DeclaredRowDataConverter converter =
                new DeclaredRowDataConverter("t", icebergSide, declared);
        assertThat(converter.isIdentity()).isTrue();
        RowData row = GenericRowData.of(1, null);
        assertThat(converter.convert(row)).isSameAs(row);
        assertThat(
                        new DeclaredRowDataConverter(
                                        "t",
                                        RowType.of(new IntType()),
                                        RowType.of(new SmallIntType()))
                                .convert(GenericRowData.of(-5))
                                .getShort(0))
                .isEqualTo((short) -5);
        assertThat(
                        new DeclaredRowDataConverter(
                                        "t",
                                        RowType.of(new IntType()),
                                        RowType.of(new BigIntType()))
                                .convert(GenericRowData.of(-5))
                                .getLong(0))
                .isEqualTo(-5L);
    }

    @Test
    void timestampsDeclaredAcrossTheCompactPrecisionAreCopiedOutOfBinaryRows() {
        RowType icebergSide = RowType.of(new TimestampType(6), new TimestampType(6));
        TimestampData ts = TimestampData.fromEpochMillis(1_704_103_200_123L, 456_000);
        BinaryRowBuilder builder = new BinaryRowBuilder(icebergSide);
        builder.begin();
        builder.setTimestamp(0, ts);
        builder.setTimestamp(1, ts);
        RowData read = builder.finish();

        DeclaredRowDataConverter compact =
                new DeclaredRowDataConverter(
                        "t", icebergSide, RowType.of(new TimestampType(3), new TimestampType(9)));
        assertThat(compact.isIdentity()).isFalse();
        RowData converted = compact.convert(read);
        assertThat(converted.getTimestamp(0, 3).getMillisecond()).isEqualTo(1_704_103_200_123L);
        assertThat(converted.getTimestamp(1, 9)).isEqualTo(ts);

        DeclaredRowDataConverter precise =
                new DeclaredRowDataConverter(
                        "t", icebergSide, RowType.of(new TimestampType(9), new TimestampType(6)));
        assertThat(precise.isIdentity()).isTrue();
        assertThat(precise.convert(read).getTimestamp(0, 9)).isEqualTo(ts);
    }

    @Test
    void incompatibleDeclarationsAreRejected() {
        RowType wrongDecimal =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new DecimalType(5, 1)
                        },
                        new String[] {"amount"});
        assertThatThrownBy(
                        () -> DeclaredTypes.icebergSideType("cat.db.t", wrongDecimal, SCHEMA, true))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("cat.db.t")
                .hasMessageContaining("'amount'")
                .hasMessageContaining("DECIMAL(5, 1)")
                .hasMessageContaining("DECIMAL(10, 2)");
        RowType floatOverDouble =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {new FloatType()},
                        new String[] {"data"});
        assertThatThrownBy(() -> DeclaredTypes.icebergSideType("t", floatOverDouble, SCHEMA, true))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'data'");
        RowType missing =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {new IntType()},
                        new String[] {"nope"});
        assertThatThrownBy(() -> DeclaredTypes.icebergSideType("t", missing, SCHEMA, true))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'nope'")
                .hasMessageContaining("[id, data, ts, f, amount]");
    }
}
