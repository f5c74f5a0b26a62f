package dev.icebergflink.source;

import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

/**
 * Small real tables for source tests: a Hadoop table in a temp directory with columns {@code id
 * long, data string, ts timestamp}, rows {@code (id, "row-" + id, 2024-01-01T00:00 + id seconds)}.
 */
public final class SourceTestTables {

    public static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()));

    private static final LocalDateTime EPOCH = LocalDateTime.of(2024, 1, 1, 0, 0);

    private SourceTestTables() {}

    /** Creates an unpartitioned table of format {@code formatVersion} at {@code location}. */
    public static Table create(String location, int formatVersion) {
        return create(location, formatVersion, PartitionSpec.unpartitioned());
    }

    public static Table create(String location, int formatVersion, PartitionSpec spec) {
        return new HadoopTables(new Configuration())
                .create(
                        SCHEMA,
                        spec,
                        Map.of(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion)),
                        location);
    }

    /** The record of row {@code id}. */
    public static Record record(long id) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.setField("id", id);
        record.setField("data", "row-" + id);
        record.setField("ts", EPOCH.plusSeconds(id));
        return record;
    }

    /** Records {@code from}, {@code from + 1}, ..., {@code to - 1}. */
    public static List<Record> records(long from, long to) {
        List<Record> records = new ArrayList<>();
        for (long id = from; id < to; id++) {
            records.add(record(id));
        }
        return records;
    }

    /** Writes the records into one Parquet data file (not committed). */
    public static DataFile writeFile(Table table, List<Record> records) {
        String path = table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
        DataWriter<Record> writer =
                GenericFileWriters.data(table, FileFormat.PARQUET)
                        .newDataWriter(
                                EncryptedFiles.plainAsEncryptedOutput(
                                        table.io().newOutputFile(path)),
                                table.spec(),
                                null);
        try (writer) {
            for (Record record : records) {
                writer.write(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDataFile();
    }

    /** Appends rows {@code [from, to)} in one file and returns the new snapshot. */
    public static Snapshot append(Table table, long from, long to) {
        table.newAppend().appendFile(writeFile(table, records(from, to))).commit();
        return table.currentSnapshot();
    }

    /** Appends rows {@code [from, to)} in one file per row group of {@code perFile} rows. */
    public static Snapshot appendFiles(Table table, long from, long to, long perFile) {
        var append = table.newAppend();
        for (long start = from; start < to; start += perFile) {
            append.appendFile(writeFile(table, records(start, Math.min(to, start + perFile))));
        }
        append.commit();
        return table.currentSnapshot();
    }

    /** Appends rows {@code [from, to)} to a branch and returns the branch's new head. */
    public static Snapshot appendToBranch(Table table, String branch, long from, long to) {
        table.newAppend().appendFile(writeFile(table, records(from, to))).toBranch(branch).commit();
        return table.snapshot(branch);
    }

    /** Writes a deletion vector (Puffin, format v3) for {@code positions} of {@code dataFile}. */
    public static org.apache.iceberg.DeleteFile writeDeletionVector(
            Table table, DataFile dataFile, long... positions) {
        var files =
                org.apache.iceberg.io.OutputFileFactory.builderFor(table, 1, 1)
                        .format(FileFormat.PUFFIN)
                        .build();
        var writer = new org.apache.iceberg.deletes.BaseDVFileWriter(files, path -> null);
        try (writer) {
            for (long pos : positions) {
                writer.delete(dataFile.location(), pos, table.spec(), dataFile.partition());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.result().deleteFiles().get(0);
    }

    /** The ids of rows in the test schema (or a projection starting with id). */
    public static List<Long> ids(List<RowData> rows) {
        return rows.stream().map(row -> row.getLong(0)).sorted().toList();
    }

    /** "id:data" of rows of the full test schema, sorted. */
    public static List<String> rowStrings(List<RowData> rows) {
        return rows.stream()
                .map(row -> row.getLong(0) + ":" + row.getString(1) + ":" + row.getTimestamp(2, 6))
                .sorted()
                .toList();
    }

    /** "id:data" strings expected for rows {@code [from, to)}. */
    public static List<String> expectedStrings(long from, long to) {
        List<String> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(id + ":row-" + id + ":" + EPOCH.plusSeconds(id).toString());
        }
        rows.sort(null);
        return rows;
    }

    /** Ids {@code [from, to)}. */
    public static List<Long> range(long from, long to) {
        List<Long> ids = new ArrayList<>();
        for (long id = from; id < to; id++) {
            ids.add(id);
        }
        return ids;
    }
}
