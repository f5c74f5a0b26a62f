package dev.icebergflink.source;

import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;

/**
 * Tables whose snapshots change rows in every way a changelog read must follow, written with
 * Iceberg's generic writers: appends, upserts (equality deletes plus new rows in one commit),
 * position deletes, deletion vectors, overwrites, file deletes and rewrites.
 *
 * <p>The schema is {@link SourceTestTables#SCHEMA} with {@code id} as identifier field, so that a
 * key removed and added by one snapshot is an update; rows are {@code (id, data, 2024-01-01 + id
 * seconds)}, written as {@code "kind id data"} strings by {@link #describe}.
 */
public final class ChangelogTestTables {

    public static final Schema KEYED = new Schema(SourceTestTables.SCHEMA.columns(), Set.of(1));

    private static final LocalDateTime EPOCH = LocalDateTime.of(2024, 1, 1, 0, 0);

    private final Table table;
    private final FileFormat format;

    private ChangelogTestTables(Table table, FileFormat format) {
        this.table = table;
        this.format = format;
    }

    /** An unpartitioned keyed table of {@code formatVersion} writing {@code format} files. */
    public static ChangelogTestTables create(
            String location, int formatVersion, FileFormat format) {
        Table table =
                new HadoopTables(new Configuration())
                        .create(
                                KEYED,
                                PartitionSpec.unpartitioned(),
                                Map.of(
                                        TableProperties.FORMAT_VERSION,
                                        Integer.toString(formatVersion),
                                        TableProperties.DEFAULT_FILE_FORMAT,
                                        format.name()),
                                location);
        return new ChangelogTestTables(table, format);
    }

    public Table table() {
        return table;
    }

    public static Record record(long id, String data) {
        GenericRecord record = GenericRecord.create(KEYED);
        record.setField("id", id);
        record.setField("data", data);
        record.setField("ts", EPOCH.plusSeconds(id));
        return record;
    }

    /** Writes a data file of rows {@code (id, data)} (not committed). */
    public DataFile dataFile(String data, long... ids) {
        DataWriter<Record> writer =
                GenericFileWriters.data(table, format)
                        .newDataWriter(
                                EncryptedFiles.plainAsEncryptedOutput(newFile()),
                                table.spec(),
                                null);
        try (writer) {
            for (long id : ids) {
                writer.write(record(id, data));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDataFile();
    }

    /** Writes an equality delete file on {@code id} (not committed). */
    public DeleteFile equalityDeletes(long... ids) {
        Schema idSchema = table.schema().select("id");
        EqualityDeleteWriter<Record> writer =
                GenericFileWriters.equalityDeletes(table, format, new int[] {1}, idSchema)
                        .newEqualityDeleteWriter(
                                EncryptedFiles.plainAsEncryptedOutput(newFile()),
                                table.spec(),
                                null);
        return GenericFileWriters.writeKeys(writer, idSchema, "id", ids);
    }

    /** Writes a position delete file for rows of {@code file} (not committed). */
    public DeleteFile positionDeletes(DataFile file, long... positions) {
        PositionDeleteWriter<Record> writer =
                GenericFileWriters.positionDeletes(table, format)
                        .newPositionDeleteWriter(
                                EncryptedFiles.plainAsEncryptedOutput(newFile()),
                                table.spec(),
                                null);
        try (writer) {
            PositionDelete<Record> delete = PositionDelete.create();
            for (long position : positions) {
                writer.write(delete.set(file.location(), position));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    /** Appends one file of rows {@code (id, data)}; returns the file. */
    public DataFile append(String data, long... ids) {
        DataFile file = dataFile(data, ids);
        table.newAppend().appendFile(file).commit();
        return file;
    }

    /**
     * Upserts rows {@code (id, data)} as Flink's upsert writer does: an equality delete of the keys
     * and a data file of the new rows, in one row delta. Returns the new data file.
     */
    public DataFile upsert(String data, long... ids) {
        DataFile file = dataFile(data, ids);
        table.newRowDelta().addRows(file).addDeletes(equalityDeletes(ids)).commit();
        return file;
    }

    /** Commits delete files in one row delta. */
    public void delete(DeleteFile... deletes) {
        var delta = table.newRowDelta();
        for (DeleteFile delete : deletes) {
            delta.addDeletes(delete);
        }
        delta.commit();
    }

    public Snapshot current() {
        return table.currentSnapshot();
    }

    private OutputFile newFile() {
        return table.io()
                .newOutputFile(
                        table.locationProvider()
                                .newDataLocation(
                                        UUID.randomUUID()
                                                + "."
                                                + format.name()
                                                        .toLowerCase(java.util.Locale.ROOT)));
    }

    /** {@code "kind id data"} of an emitted row of the full schema (or a projection id, data). */
    public static String describe(RowData row) {
        return row.getRowKind().shortString() + " " + row.getLong(0) + " " + row.getString(1);
    }

    /** {@code "kind id data"} strings, for expectations. */
    public static List<String> expect(RowKind kind, String data, long... ids) {
        List<String> rows = new ArrayList<>();
        for (long id : ids) {
            rows.add(kind.shortString() + " " + id + " " + data);
        }
        return rows;
    }
}
