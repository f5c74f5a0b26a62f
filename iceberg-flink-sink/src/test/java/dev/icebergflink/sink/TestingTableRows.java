package dev.icebergflink.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The rows of a sink test table ({@code id, data, part}) as sorted {@code "id:data:part"} strings,
 * read with Iceberg's generic reader (deletes applied), so tests compare whole contents.
 */
public final class TestingTableRows {

    private TestingTableRows() {}

    /** The rows of the table's current snapshot (the table is refreshed first). */
    public static List<String> of(Table table) {
        table.refresh();
        return read(IcebergGenerics.read(table));
    }

    /** The rows a generic scan returns. */
    static List<String> read(IcebergGenerics.ScanBuilder scan) {
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = scan.build()) {
            for (Record record : records) {
                rows.add(
                        record.getField("id")
                                + ":"
                                + record.getField("data")
                                + ":"
                                + record.getField("part"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.sort(null);
        return rows;
    }
}
