package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/**
 * The equality key: its length per key layout, one key per value whatever the row implementation
 * (the sender keys generic rows, the receiver binary rows), distinct keys for distinct values, and
 * the errors.
 */
class EqualityKeySelectorTest {

    private static RowType type(LogicalType... types) {
        return RowType.of(types);
    }

    private static int keyLength(RowType type, int... positions) {
        return ((EqualityKeyTypeInfo) new EqualityKeySelector(type, positions).keyType())
                .keyLength();
    }

    @Test
    void keysOfFixedWidthColumnsHaveAFixedLength() {
        assertThat(keyLength(type(new BigIntType(false)), 0)).isEqualTo(8);
        assertThat(keyLength(type(new IntType(false), new DateType(false)), 0, 1)).isEqualTo(8);
        // a nullable column adds its presence byte
        assertThat(keyLength(type(new BigIntType(true)), 0)).isEqualTo(9);
        assertThat(keyLength(type(new TimestampType(false, 3)), 0)).isEqualTo(8);
        assertThat(keyLength(type(new TimestampType(false, 6)), 0)).isEqualTo(12);
        assertThat(keyLength(type(new LocalZonedTimestampType(false, 9)), 0)).isEqualTo(12);
        assertThat(keyLength(type(new DecimalType(false, 18, 2)), 0)).isEqualTo(8);
        assertThat(keyLength(type(new BinaryType(false, 16)), 0)).isEqualTo(16);
        assertThat(keyLength(type(new BooleanType(false), new SmallIntType(false)), 0, 1))
                .isEqualTo(3);
        // only the key columns count
        assertThat(keyLength(type(new VarCharType(false, 10), new BigIntType(false)), 1))
                .isEqualTo(8);
    }

    @Test
    void keysWithAVariableWidthColumnHaveNoFixedLength() {
        assertThat(keyLength(type(new VarCharType(false, VarCharType.MAX_LENGTH)), 0))
                .isEqualTo(-1);
        assertThat(keyLength(type(new BigIntType(false), new VarBinaryType(false, 100)), 0, 1))
                .isEqualTo(-1);
        assertThat(keyLength(type(new DecimalType(false, 38, 10)), 0)).isEqualTo(-1);
        assertThat(keyLength(type(new ArrayType(false, new IntType(false))), 0)).isEqualTo(-1);
    }

    @Test
    void aBigintKeyIsItsBigEndianValue() {
        EqualityKeySelector selector =
                new EqualityKeySelector(type(new BigIntType(false), new IntType()), new int[] {0});
        EqualityKey key = selector.getKey(GenericRowData.of(0x0102030405060708L, 5));
        assertThat(key.bytes()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }

    /** A row type with one column of every key type the encoder knows, all nullable. */
    private static final RowType ALL =
            type(
                    new BooleanType(),
                    new SmallIntType(),
                    new IntType(),
                    new BigIntType(),
                    new DoubleType(),
                    new DateType(),
                    new TimestampType(6),
                    new LocalZonedTimestampType(3),
                    new DecimalType(10, 2),
                    new DecimalType(30, 4),
                    new VarCharType(VarCharType.MAX_LENGTH),
                    new BinaryType(4),
                    new VarBinaryType(VarBinaryType.MAX_LENGTH),
                    new ArrayType(new IntType()));

    private static final int[] ALL_POSITIONS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

    /** A row of {@link #ALL} from a few small value ranges, so that values repeat; some nulls. */
    private static GenericRowData randomRow(Random random) {
        Object[] values =
                new Object[] {
                    random.nextBoolean(),
                    (short) random.nextInt(3),
                    random.nextInt(3),
                    (long) random.nextInt(3),
                    random.nextInt(3) / 2.0,
                    random.nextInt(3),
                    TimestampData.fromLocalDateTime(
                            LocalDateTime.of(2024, 1, 1, 0, 0)
                                    .plusNanos(random.nextInt(3) * 1000L)),
                    TimestampData.fromEpochMillis(random.nextInt(3)),
                    DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextInt(3), 2), 10, 2),
                    DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextInt(3), 4), 30, 4),
                    StringData.fromString(List.of("", "a", "ab", "b").get(random.nextInt(4))),
                    new byte[] {0, 0, 0, (byte) random.nextInt(3)},
                    new byte[random.nextInt(3)],
                    new GenericArrayData(new int[random.nextInt(3)])
                };
        for (int i = 0; i < values.length; i++) {
            if (random.nextInt(8) == 0) {
                values[i] = null;
            }
        }
        GenericRowData row = GenericRowData.of(values);
        row.setRowKind(RowKind.values()[random.nextInt(RowKind.values().length)]);
        return row;
    }

    /** The row's values in a comparable form (arrays and binary values as lists). */
    private static List<Object> values(RowData row) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < ALL.getFieldCount(); i++) {
            Object value = RowData.createFieldGetter(ALL.getTypeAt(i), i).getFieldOrNull(row);
            if (value instanceof byte[] bytes) {
                List<Byte> list = new ArrayList<>();
                for (byte b : bytes) {
                    list.add(b);
                }
                value = list;
            } else if (value instanceof GenericArrayData array) {
                value = "array of " + array.size();
            }
            values.add(value);
        }
        return values;
    }

    @Test
    void equalValuesGiveEqualKeysAndDistinctValuesDistinctKeys() throws Exception {
        EqualityKeySelector selector = new EqualityKeySelector(ALL, ALL_POSITIONS);
        // as shipped to the subtasks
        EqualityKeySelector shipped = InstantiationUtil.clone(selector);
        RowDataSerializer binary = new RowDataSerializer(ALL);
        EqualityKeyBytes reused = new EqualityKeyBytes(ALL, ALL_POSITIONS);
        Map<EqualityKey, List<Object>> seen = new HashMap<>();
        java.util.Set<List<Object>> distinctValues = new java.util.HashSet<>();
        Random draws = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            // 500 seeds: the same values come again, each time in new objects
            GenericRowData row = randomRow(new Random(draws.nextInt(500)));
            EqualityKey key = selector.getKey(row);
            // the row kind is not part of the key; the binary form of the row keys the same
            assertThat(shipped.getKey(binary.toBinaryRow(row).copy())).isEqualTo(key);
            assertThat(shipped.getKey(row).hashCode()).isEqualTo(key.hashCode());
            // the reused buffer holds the same bytes and hash, whatever length came before
            int length = reused.encode(binary.toBinaryRow(row));
            assertThat(java.util.Arrays.copyOf(reused.bytes(), length)).isEqualTo(key.bytes());
            assertThat(reused.hash()).isEqualTo(key.hashCode());
            List<Object> previous = seen.putIfAbsent(key, values(row));
            if (previous != null) {
                assertThat(values(row)).as("values of key %s", key).isEqualTo(previous);
            }
            distinctValues.add(values(row));
        }
        // one key per distinct combination of values
        assertThat(seen).hasSize(distinctValues.size());
        assertThat(distinctValues.size()).isGreaterThan(400);
    }

    @Test
    void variableWidthColumnsCannotRunIntoEachOther() {
        EqualityKeySelector selector =
                new EqualityKeySelector(
                        type(new VarCharType(false, 10), new VarCharType(false, 10)),
                        new int[] {0, 1});
        assertThat(selector.getKey(GenericRowData.of(str("ab"), str("c"))))
                .isNotEqualTo(selector.getKey(GenericRowData.of(str("a"), str("bc"))));
    }

    @Test
    void nullDiffersFromEveryValue() {
        EqualityKeySelector selector =
                new EqualityKeySelector(type(new BigIntType(), new IntType()), new int[] {0, 1});
        assertThat(selector.getKey(GenericRowData.of(null, 0)))
                .isNotEqualTo(selector.getKey(GenericRowData.of(0L, 0)))
                .isNotEqualTo(selector.getKey(GenericRowData.of(0L, null)))
                .isEqualTo(selector.getKey(GenericRowData.of(null, 0)));
    }

    @Test
    void aBinaryKeyValueOfTheWrongLengthIsAnErrorNamingTheColumn() {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BinaryType(false, 16)}, new String[] {"uuid_col"});
        EqualityKeySelector selector = new EqualityKeySelector(type, new int[] {0});
        assertThatThrownBy(() -> selector.getKey(GenericRowData.of((Object) new byte[15])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'uuid_col'")
                .hasMessageContaining("BINARY(16)")
                .hasMessageContaining("15 bytes");
    }

    @Test
    void positionsMustBeColumns() {
        assertThatThrownBy(() -> new EqualityKeySelector(type(new IntType()), new int[] {1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Position 1");
        assertThatThrownBy(() -> new EqualityKeySelector(type(new IntType()), new int[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one column");
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
