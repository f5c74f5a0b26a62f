package dev.icebergflink.e2e.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What a table holds, read in the test JVM with Iceberg's generic reader: the end-to-end tests
 * check the rows the cluster wrote independently of the connector that wrote them.
 */
final class TableContents {

    private TableContents() {}

    /** The given columns of every row, sorted by the first column (a BIGINT id). */
    static List<List<Object>> rows(Table table, String... columns) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                List<Object> row = new ArrayList<>();
                for (String column : columns) {
                    row.add(record.getField(column));
                }
                rows.add(row);
            }
        }
        rows.sort(Comparator.comparing(row -> (Long) row.get(0)));
        return rows;
    }
}
