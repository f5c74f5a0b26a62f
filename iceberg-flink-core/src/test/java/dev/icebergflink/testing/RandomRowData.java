package dev.icebergflink.testing;

import java.util.List;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;

/**
 * Seeded random Flink rows ({@link GenericRowData} / {@link GenericArrayData} / {@link
 * GenericMapData}) holding the internal values of the shared conventions table, for any Iceberg
 * schema.
 *
 * <p>The rows are exactly {@link RandomRecords#generate} converted with {@link
 * RowDataConverter#fromRecord}, so the same schema, count and seed give equivalent Records and
 * RowData: write one side, read the other, and compare.
 */
public final class RandomRowData {

    /**
     * Generates {@code count} rows of {@code schema}; the same arguments always give the same rows.
     */
    public static List<RowData> generate(Schema schema, int count, long seed) {
        return RowDataConverter.fromRecords(schema, RandomRecords.generate(schema, count, seed));
    }

    private RandomRowData() {}
}
