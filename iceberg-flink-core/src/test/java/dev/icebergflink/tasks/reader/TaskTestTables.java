package dev.icebergflink.tasks.reader;

import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;

/**
 * Small real Hadoop tables for file-task reader tests (here and in the modules that use the
 * reader): rows {@code (id, data, category, ts)} partitioned by {@code category}, written with
 * iceberg-data's generic writers, plus position deletes, equality deletes and deletion vectors.
 */
public final class TaskTestTables {

    public static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.required(3, "category", Types.StringType.get()),
                    Types.NestedField.optional(4, "ts", Types.LongType.get()));

    public static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("category").build();

    private TaskTestTables() {}

    /** A partitioned table of the given format version in {@code dir}. */
    public static Table create(Path dir, int formatVersion) {
        return new HadoopTables(new Configuration())
                .create(
                        SCHEMA,
                        SPEC,
                        Map.of(
                                TableProperties.FORMAT_VERSION,
                                String.valueOf(formatVersion),
                                // one file per combined task unless a test asks otherwise
                                TableProperties.SPLIT_OPEN_FILE_COST,
                                String.valueOf(Long.MAX_VALUE / 4)),
                        dir.resolve("table-v" + formatVersion).toString());
    }

    public static Record record(long id, String data, String category, long ts) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.setField("id", id);
        record.setField("data", data);
        record.setField("category", category);
        record.setField("ts", ts);
        return record;
    }

    /** Rows {@code from..to-1} of one category, data {@code "d" + id}, ts {@code id * 1000}. */
    public static List<Record> records(long from, long to, String category) {
        List<Record> records = new ArrayList<>();
        for (long id = from; id < to; id++) {
            records.add(record(id, "d" + id, category, id * 1000));
        }
        return records;
    }

    public static PartitionKey partitionOf(Record record) {
        PartitionKey key = new PartitionKey(SPEC, SCHEMA);
        key.partition(record);
        return key;
    }

    /** Writes one data file of records of one partition (not committed). */
    public static DataFile writeData(Table table, FileFormat format, List<Record> records) {
        PartitionKey partition = partitionOf(records.get(0));
        DataWriter<Record> writer =
                GenericFileWriters.data(table, format)
                        .newDataWriter(output(table, format, partition), table.spec(), partition);
        try (writer) {
            records.forEach(writer::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDataFile();
    }

    /** Writes and appends one data file; returns it. */
    public static DataFile append(Table table, FileFormat format, List<Record> records) {
        DataFile file = writeData(table, format, records);
        table.newAppend().appendFile(file).commit();
        return file;
    }

    /** Writes a position delete file for {@code positions} of {@code dataFile} (v2). */
    public static DeleteFile writePositionDeletes(
            Table table, FileFormat format, DataFile dataFile, long... positions) {
        StructLike partition = dataFile.partition();
        PositionDeleteWriter<Record> writer =
                GenericFileWriters.positionDeletes(table, format)
                        .newPositionDeleteWriter(
                                output(table, format, partition), table.spec(), partition);
        PositionDelete<Record> delete = PositionDelete.create();
        try (writer) {
            for (long pos : positions) {
                writer.write(delete.set(dataFile.location(), pos));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    /** Writes an equality delete file on {@code id} for the given ids in {@code category}. */
    public static DeleteFile writeIdEqualityDeletes(
            Table table, FileFormat format, String category, long... ids) {
        Schema deleteSchema = table.schema().select("id");
        PartitionKey partition = partitionOf(record(0, null, category, 0));
        EqualityDeleteWriter<Record> writer =
                GenericFileWriters.equalityDeletes(table, format, new int[] {1}, deleteSchema)
                        .newEqualityDeleteWriter(
                                output(table, format, partition), table.spec(), partition);
        try (writer) {
            for (long id : ids) {
                GenericRecord key = GenericRecord.create(deleteSchema);
                key.setField("id", id);
                writer.write(key);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    /** Writes a deletion vector (Puffin) for {@code positions} of {@code dataFile} (v3). */
    public static DeleteFile writeDeletionVector(
            Table table, DataFile dataFile, long... positions) {
        OutputFileFactory files =
                OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PUFFIN).build();
        BaseDVFileWriter writer = new BaseDVFileWriter(files, path -> null);
        try (writer) {
            for (long pos : positions) {
                writer.delete(dataFile.location(), pos, table.spec(), dataFile.partition());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<DeleteFile> deleteFiles = writer.result().deleteFiles();
        if (deleteFiles.size() != 1) {
            throw new IllegalStateException("Expected one DV file, got " + deleteFiles);
        }
        return deleteFiles.get(0);
    }

    /** Commits delete files in one row delta. */
    public static void commitDeletes(Table table, DeleteFile... deletes) {
        var delta = table.newRowDelta();
        for (DeleteFile delete : deletes) {
            delta.addDeletes(delete);
        }
        delta.commit();
    }

    private static EncryptedOutputFile output(
            Table table, FileFormat format, StructLike partition) {
        String location =
                table.locationProvider()
                        .newDataLocation(
                                table.spec(), partition, UUID.randomUUID() + "." + format.name());
        return EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location));
    }

    /** The current snapshot's file tasks matching {@code filter}, in planning order. */
    public static List<FileScanTask> planFiles(
            Table table, Expression filter, boolean caseSensitive) {
        List<FileScanTask> tasks = new ArrayList<>();
        try (CloseableIterable<FileScanTask> planned =
                scan(table, filter, caseSensitive).planFiles()) {
            planned.forEach(tasks::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tasks;
    }

    private static TableScan scan(Table table, Expression filter, boolean caseSensitive) {
        return table.newScan()
                .caseSensitive(caseSensitive)
                .includeColumnStats()
                .filter(filter == null ? Expressions.alwaysTrue() : filter);
    }

    public static RowDataFileTaskReader reader(
            Table table, Schema projected, boolean caseSensitive) {
        return new RowDataFileTaskReader(
                table.schema(), projected, null, caseSensitive, table.io(), table.encryption());
    }

    /** Every row of every task, through the file-task reader. */
    public static List<RowData> readAll(RowDataFileTaskReader reader, List<FileScanTask> tasks) {
        List<RowData> rows = new ArrayList<>();
        for (FileScanTask task : tasks) {
            try (CloseableIterable<RowData> taskRows = reader.open(task)) {
                taskRows.forEach(rows::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }

    /** A row as {@code "v1|v2|..."} using the Flink types of {@code schema}. */
    public static String format(Schema schema, RowData row) {
        RowType type = dev.icebergflink.FlinkSchemaUtil.convert(schema);
        if (row.getArity() != type.getFieldCount()) {
            throw new AssertionError(
                    "Row arity " + row.getArity() + " differs from schema " + schema.asStruct());
        }
        StringBuilder text = new StringBuilder();
        for (int pos = 0; pos < type.getFieldCount(); pos++) {
            if (pos > 0) {
                text.append('|');
            }
            text.append(field(type, row, pos));
        }
        return text.toString();
    }

    /** A nested row as {@code "(v1,v2,...)"}, read through getters whatever its class. */
    private static String formatNested(RowType type, RowData row) {
        StringBuilder text = new StringBuilder("(");
        for (int pos = 0; pos < row.getArity(); pos++) {
            if (pos > 0) {
                text.append(',');
            }
            text.append(field(type, row, pos));
        }
        return text.append(')').toString();
    }

    private static Object field(RowType type, RowData row, int pos) {
        LogicalType fieldType = type.getTypeAt(pos);
        Object value = RowData.createFieldGetter(fieldType, pos).getFieldOrNull(row);
        return value instanceof RowData nested ? formatNested((RowType) fieldType, nested) : value;
    }

    public static List<String> formatAll(Schema schema, List<RowData> rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(row -> out.add(format(schema, row)));
        return out;
    }
}
