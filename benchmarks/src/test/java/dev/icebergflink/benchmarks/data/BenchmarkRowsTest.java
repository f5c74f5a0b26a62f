package dev.icebergflink.benchmarks.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;

class BenchmarkRowsTest {

    private final BenchmarkRows rows = new BenchmarkRows(42);

    @Test
    void rowDataAndRecordsHoldTheSameValues() {
        for (long id = 0; id < 1000; id++) {
            RowData row = rows.rowData(id);
            Record record = rows.record(id);
            assertThat(row.getLong(0)).isEqualTo(id).isEqualTo(record.getField("id"));
            assertThat(row.getTimestamp(1, 6).toLocalDateTime()).isEqualTo(record.getField("ts"));
            assertThat(row.getString(2).toString()).isEqualTo(record.getField("category"));
            assertThat(row.getString(3).toString())
                    .isEqualTo(record.getField("name"))
                    .hasSize(BenchmarkRows.NAME_LENGTH);
            assertThat(row.getDouble(4)).isEqualTo(record.getField("price"));
            assertThat(row.getInt(5)).isEqualTo(record.getField("quantity"));
            assertThat(row.getBoolean(6)).isEqualTo(record.getField("active"));
            assertThat(row.getDecimal(7, 10, 2).toBigDecimal())
                    .isEqualTo((BigDecimal) record.getField("amount"));
            assertThat(LocalDate.ofEpochDay(row.getInt(8))).isEqualTo(record.getField("day"));
            assertThat(row.getString(9).toString())
                    .isEqualTo(record.getField("comment"))
                    .hasSize(BenchmarkRows.COMMENT_LENGTH);
        }
    }

    @Test
    void theRowTypeIsTheConnectorsConversionOfTheSchema() {
        // spelled out in BenchmarkRows so that the launcher of Iceberg's connector can share it
        assertThat(BenchmarkRows.ROW_TYPE)
                .isEqualTo(dev.icebergflink.FlinkSchemaUtil.convert(BenchmarkRows.SCHEMA));
    }

    @Test
    void theSameSeedGivesTheSameRowsAndAnotherSeedOtherValues() {
        assertThat(new BenchmarkRows(42).record(7)).isEqualTo(rows.record(7));
        Record other = new BenchmarkRows(43).record(7);
        assertThat(other.getField("id")).isEqualTo(7L);
        assertThat(other.getField("comment")).isNotEqualTo(rows.record(7).getField("comment"));
    }

    @Test
    void valuesSpreadAsTheWorkloadsExpect() {
        Set<Object> categories = new HashSet<>();
        int years = 0;
        for (long id = 0; id < 10_000; id++) {
            Record record = rows.record(id);
            categories.add(record.getField("category"));
            int quantity = (Integer) record.getField("quantity");
            assertThat(quantity).isBetween(0, 999).isEqualTo(rows.quantityOf(id));
            LocalDateTime ts = (LocalDateTime) record.getField("ts");
            years += ts.getYear() == 2026 ? 1 : 0;
        }
        assertThat(categories).hasSize(BenchmarkRows.CATEGORIES);
        assertThat(years).isEqualTo(10_000);
        // about 10% pass the filter of the filtered workloads
        assertThat(rows.filteredCount(10_000)).isBetween(900L, 1100L);
    }
}
