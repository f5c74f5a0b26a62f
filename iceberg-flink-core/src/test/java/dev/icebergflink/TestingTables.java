package dev.icebergflink;

import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

/** A small schema and helpers to write and read a few rows, for loader tests. */
final class TestingTables {

    static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()));

    private TestingTables() {}

    /** Appends rows {@code (id, "name-" + id)} in one Parquet file. */
    static void append(Table table, long... ids) {
        List<Record> records = new ArrayList<>();
        for (long id : ids) {
            GenericRecord record = GenericRecord.create(SCHEMA);
            record.setField("id", id);
            record.setField("name", "name-" + id);
            records.add(record);
        }
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
        DataFile file = writer.toDataFile();
        table.newAppend().appendFile(file).commit();
    }

    /** The table's rows as {@code "id:name"} strings, sorted. */
    static List<String> rows(Table table) {
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                rows.add(record.getField("id") + ":" + record.getField("name"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.sort(null);
        return rows;
    }
}
