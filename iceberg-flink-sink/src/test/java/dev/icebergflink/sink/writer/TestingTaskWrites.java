package dev.icebergflink.sink.writer;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;

/**
 * The writer tests' schema {@code (id bigint not null, data string, part string not null)} keyed by
 * {@code id}, rows of it, and one checkpoint's write and commit: what every task writer test needs,
 * in one place.
 */
final class TestingTaskWrites {

    static final Schema SCHEMA =
            new Schema(
                    List.of(
                            Types.NestedField.required(1, "id", Types.LongType.get()),
                            Types.NestedField.optional(2, "data", Types.StringType.get()),
                            Types.NestedField.required(3, "part", Types.StringType.get())),
                    Set.of(1));

    private TestingTaskWrites() {}

    /** The schema partitioned by identity of {@code part}. */
    static PartitionSpec byPart() {
        return PartitionSpec.builderFor(SCHEMA).identity("part").build();
    }

    static RowData row(RowKind kind, long id, String data, String part) {
        GenericRowData row =
                GenericRowData.of(id, StringData.fromString(data), StringData.fromString(part));
        row.setRowKind(kind);
        return row;
    }

    /** One checkpoint of a new task writer of {@code factory}: writes the rows, completes. */
    static WriteResult write(RowDataTaskWriterFactory factory, List<RowData> rows)
            throws IOException {
        TaskWriter<RowData> writer = factory.create();
        for (RowData row : rows) {
            writer.write(row);
        }
        return writer.complete();
    }

    /** Commits a write result as one row delta, validating its referenced data files. */
    static void commit(Table table, WriteResult result) {
        table.refresh();
        RowDelta delta = table.newRowDelta();
        Arrays.stream(result.dataFiles()).forEach(delta::addRows);
        Arrays.stream(result.deleteFiles()).forEach(delta::addDeletes);
        if (result.referencedDataFiles().length > 0) {
            delta.validateDataFilesExist(Arrays.asList(result.referencedDataFiles()));
        }
        delta.commit();
    }
}
