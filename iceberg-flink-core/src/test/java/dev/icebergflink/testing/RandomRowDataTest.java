package dev.icebergflink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class RandomRowDataTest {

    @Test
    void sameSeedGivesSameRowsAndRecords() {
        Schema schema = TestSchemas.NESTED;
        RowDataAssert.assertRowsEqual(
                schema,
                RandomRowData.generate(schema, 100, 9L),
                RandomRowData.generate(schema, 100, 9L));
        RowDataAssert.assertRecordsMatchRows(
                schema,
                RandomRecords.generate(schema, 100, 9L),
                RandomRowData.generate(schema, 100, 9L));
    }

    @Test
    void differentSeedsGiveDifferentRows() {
        Schema schema = TestSchemas.ALL_PRIMITIVES;
        List<RowData> first = RandomRowData.generate(schema, 10, 1L);
        List<RowData> second = RandomRowData.generate(schema, 10, 2L);
        assertThat(RowDataAssert.valuesEqual(schema.asStruct(), first.get(0), second.get(0)))
                .isFalse();
    }

    @Test
    void optionalColumnsHoldNullsAndEdgeValuesRequiredColumnsDoNot() {
        Schema schema = TestSchemas.ALL_PRIMITIVES;
        List<RowData> rows = RandomRowData.generate(schema, 500, 4L);
        List<Types.NestedField> columns = schema.columns();
        for (int i = 0; i < columns.size(); i++) {
            int pos = i;
            long nulls = rows.stream().filter(row -> row.isNullAt(pos)).count();
            if (columns.get(i).isOptional()) {
                assertThat(nulls).as("nulls in %s", columns.get(i).name()).isBetween(25L, 125L);
            } else {
                assertThat(nulls).as("nulls in %s", columns.get(i).name()).isZero();
            }
        }
        assertThat(rows).anyMatch(row -> !row.isNullAt(1) && row.getInt(1) == Integer.MIN_VALUE);
        assertThat(rows).anyMatch(row -> !row.isNullAt(3) && Float.isNaN(row.getFloat(3)));
        assertThat(rows).anyMatch(row -> !row.isNullAt(5) && row.getInt(5) < 0);
        assertThat(rows)
                .anyMatch(
                        row ->
                                !row.isNullAt(15)
                                        && row.getDecimal(15, 38, 10).toBigDecimal().precision()
                                                == 38);
        assertThat(rows)
                .anyMatch(
                        row ->
                                !row.isNullAt(9)
                                        && row.getString(9)
                                                .toString()
                                                .codePoints()
                                                .anyMatch(c -> c > 0xFFFF));
        assertThat(rows)
                .allMatch(
                        row -> row.isNullAt(6) || row.getInt(6) >= 0 && row.getInt(6) < 86_400_000);
        assertThat(rows)
                .anyMatch(
                        row ->
                                !row.isNullAt(7)
                                        && row.getTimestamp(7, 6).getNanoOfMillisecond() % 1000 == 0
                                        && row.getTimestamp(7, 6).getNanoOfMillisecond() != 0);
    }

    @Test
    void collectionsAreSometimesEmptyAndSometimesNot() {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = RandomRowData.generate(schema, 200, 8L);
        int pos = schema.columns().indexOf(schema.findField("required_ints"));
        assertThat(rows).allMatch(row -> !row.isNullAt(pos));
        assertThat(rows).anyMatch(row -> row.getArray(pos).size() == 0);
        assertThat(rows).anyMatch(row -> row.getArray(pos).size() > 1);
        assertThat(rows).allMatch(row -> row instanceof GenericRowData);
    }

    @Test
    void randomSchemasAreDeterministicAndNested() {
        Schema first = RandomSchemaGenerator.generate(77L);
        Schema second = RandomSchemaGenerator.generate(77L);
        assertThat(first.asStruct()).isEqualTo(second.asStruct());
        int nested = 0;
        for (long seed = 0; seed < 20; seed++) {
            Schema schema = RandomSchemaGenerator.generate(seed);
            nested += TypeUtil.indexById(schema.asStruct()).size() - schema.columns().size();
            List<Record> records = RandomRecords.generate(schema, 5, seed);
            assertThat(records).hasSize(5);
        }
        assertThat(nested).isPositive();
    }
}
