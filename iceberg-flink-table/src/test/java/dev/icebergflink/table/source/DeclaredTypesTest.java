package dev.icebergflink.table.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
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
    void columnsDifferingOnlyByCaseResolveByExactNameWhateverTheCaseOption() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(1, "Name", Types.StringType.get()),
                        Types.NestedField.optional(2, "name", Types.StringType.get()),
                        Types.NestedField.optional(3, "City", Types.StringType.get()));
        for (boolean caseSensitive : new boolean[] {true, false}) {
            assertThat(DeclaredTypes.icebergColumn("t", schema, "Name", caseSensitive).fieldId())
                    .isEqualTo(1);
            assertThat(DeclaredTypes.icebergColumn("t", schema, "name", caseSensitive).fieldId())
                    .isEqualTo(2);
        }
        assertThat(DeclaredTypes.icebergColumn("t", schema, "CITY", false).fieldId()).isEqualTo(3);
        assertThatThrownBy(() -> DeclaredTypes.icebergColumn("t", schema, "CITY", true))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("declares column 'CITY', which the Iceberg table does not");
        assertThatThrownBy(() -> DeclaredTypes.icebergColumn("t", schema, "NAME", false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("matches several Iceberg columns")
                .hasMessageContaining("[Name, name]");
    }

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
    void multisetOverTheMapItIsStoredAsPassesThrough() {
        org.apache.flink.table.types.logical.LogicalType stored =
                new MapType(new VarCharType(false, VarCharType.MAX_LENGTH), new IntType(false));
        assertThat(
                        DeclaredTypes.conversion(
                                "t", "tags", new MultisetType(new VarCharType(10)), stored))
                .isEqualTo(DeclaredTypes.Conversion.NONE);
        assertThatThrownBy(
                        () ->
                                DeclaredTypes.conversion(
                                        "t", "tags", new MultisetType(new IntType()), stored))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'tags'")
                .hasMessageContaining("MULTISET<T> over MAP<T, INT>");
        assertThatThrownBy(
                        () ->
                                DeclaredTypes.conversion(
                                        "t",
                                        "tags",
                                        new MultisetType(new VarCharType(10)),
                                        new MapType(new VarCharType(), new BigIntType())))
                .isInstanceOf(ValidationException.class);
    }

    @Test
    void timestampPrecisionsThatChangeTheBinaryLayoutRebuildTheRow() {
        // readers produce binary rows laid out for the Iceberg side's precision (6)
        TimestampData micros = TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000);
        BinaryRowData binary = new BinaryRowData(1);
        BinaryRowWriter writer = new BinaryRowWriter(binary);
        writer.writeTimestamp(0, micros, 6);
        writer.complete();
        RowType icebergSide = RowType.of(new TimestampType(6));

        DeclaredRowDataConverter millis =
                new DeclaredRowDataConverter("t", icebergSide, RowType.of(new TimestampType(3)));
        assertThat(millis.isIdentity()).isFalse();
        assertThat(millis.convert(binary).getTimestamp(0, 3)).isEqualTo(micros);

        DeclaredRowDataConverter localZoned =
                new DeclaredRowDataConverter(
                        "t",
                        RowType.of(new LocalZonedTimestampType(6)),
                        RowType.of(new LocalZonedTimestampType(0)));
        assertThat(localZoned.isIdentity()).isFalse();

        // 9 digits lay the value out like 6: the binary row passes through
        DeclaredRowDataConverter nanos =
                new DeclaredRowDataConverter("t", icebergSide, RowType.of(new TimestampType(9)));
        assertThat(nanos.isIdentity()).isTrue();
        assertThat(nanos.convert(binary).getTimestamp(0, 9)).isEqualTo(micros);
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
