package dev.icebergflink.table.testing;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.data.row.RowDataStructLike;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes test data into Iceberg tables without the Flink sink: rows become data files through the
 * core {@link RowDataFileWriterFactory} and are committed with {@link AppendFiles}.
 *
 * <p>It exists because SQL {@code INSERT} needs the sink, which arrives separately; SQL read tests
 * (and later the sink's tests, to prepare tables) use it to create snapshots with known files.
 */
public final class TableData {

    private static final AtomicInteger TASK_IDS = new AtomicInteger();

    private TableData() {}

    /**
     * A Flink internal row from Java values: {@code String} becomes {@link StringData}, {@link
     * LocalDate} epoch days, {@link LocalDateTime} {@link TimestampData}, {@link BigDecimal} {@link
     * DecimalData} (with its own precision and scale); other values are kept.
     */
    public static RowData row(Object... values) {
        Object[] converted = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value instanceof String s) {
                value = StringData.fromString(s);
            } else if (value instanceof LocalDate d) {
                value = (int) d.toEpochDay();
            } else if (value instanceof LocalDateTime t) {
                value = TimestampData.fromLocalDateTime(t);
            } else if (value instanceof BigDecimal b) {
                value = DecimalData.fromBigDecimal(b, b.precision(), b.scale());
            }
            converted[i] = value;
        }
        return GenericRowData.of(converted);
    }

    /**
     * Commits one append snapshot with one data file per partition holding {@code rows} (in the
     * table schema).
     *
     * @return the id of the new snapshot
     */
    public static long append(Table table, List<RowData> rows) {
        return appendFiles(table, List.of(rows));
    }

    /**
     * Commits one append snapshot with one data file (per partition) for each list of rows.
     *
     * @return the id of the new snapshot
     */
    public static long appendFiles(Table table, List<List<RowData>> files) {
        table.refresh();
        AppendFiles append = table.newAppend();
        for (List<RowData> rows : files) {
            writeFiles(table, rows).forEach(append::appendFile);
        }
        append.commit();
        table.refresh();
        return table.currentSnapshot().snapshotId();
    }

    /** Writes {@code rows} as one data file per partition, without committing them. */
    public static List<DataFile> writeFiles(Table table, List<RowData> rows) {
        RowType rowType = FlinkSchemaUtil.convert(table.schema());
        PartitionSpec spec = table.spec();
        Map<PartitionKey, List<RowData>> byPartition = new LinkedHashMap<>();
        RowDataStructLike wrapper = new RowDataStructLike(table.schema().asStruct(), rowType);
        for (RowData row : rows) {
            PartitionKey key = new PartitionKey(spec, table.schema());
            key.partition(wrapper.wrap(row));
            byPartition.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        RowDataFileWriterFactory writers = RowDataFileWriterFactory.builderFor(table).build();
        OutputFileFactory files =
                OutputFileFactory.builderFor(table, 1, TASK_IDS.incrementAndGet()).build();
        List<DataFile> written = new ArrayList<>();
        for (Map.Entry<PartitionKey, List<RowData>> entry : byPartition.entrySet()) {
            PartitionKey partition = spec.isUnpartitioned() ? null : entry.getKey();
            DataWriter<RowData> writer =
                    writers.newDataWriter(
                            partition == null
                                    ? files.newOutputFile()
                                    : files.newOutputFile(spec, partition),
                            spec,
                            partition);
            try (writer) {
                entry.getValue().forEach(writer::write);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            written.add(writer.toDataFile());
        }
        return written;
    }

    /** Commits a position delete of row {@code position} of {@code file} (a v2+ table). */
    public static void deletePosition(Table table, DataFile file, long position) {
        table.refresh();
        PartitionSpec spec = table.specs().get(file.specId());
        RowDataFileWriterFactory writers = RowDataFileWriterFactory.builderFor(table).build();
        OutputFileFactory files =
                OutputFileFactory.builderFor(table, 1, TASK_IDS.incrementAndGet()).build();
        PositionDeleteWriter<RowData> writer =
                writers.newPositionDeleteWriter(
                        spec.isUnpartitioned()
                                ? files.newOutputFile()
                                : files.newOutputFile(spec, file.partition()),
                        spec,
                        spec.isUnpartitioned() ? null : file.partition());
        try (writer) {
            writer.write(PositionDelete.<RowData>create().set(file.location(), position));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
        table.refresh();
    }
}
