package dev.icebergflink.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.FileWriterFactory;

/**
 * Iceberg's generic writers for test fixtures: the data files, position deletes and equality
 * deletes that other engines would have written, made with Iceberg's own {@link
 * GenericFileWriterFactory} so that our readers are tested against files they did not write
 * themselves.
 */
public final class GenericFileWriters {

    private GenericFileWriters() {}

    /** Writes data files of the table's schema in {@code format}. */
    public static FileWriterFactory<Record> data(Table table, FileFormat format) {
        return data(table, table.schema(), format);
    }

    /**
     * Writes data files of {@code schema} (for example an older schema of the table) in {@code
     * format}.
     */
    public static FileWriterFactory<Record> data(Table table, Schema schema, FileFormat format) {
        return new GenericFileWriterFactory.Builder(table)
                .dataSchema(schema)
                .dataFileFormat(format)
                .build();
    }

    /** Writes position-delete files in {@code format}. */
    public static FileWriterFactory<Record> positionDeletes(Table table, FileFormat format) {
        return new GenericFileWriterFactory.Builder(table).deleteFileFormat(format).build();
    }

    /**
     * Writes equality-delete files in {@code format} whose rows have {@code rowSchema} and compare
     * the fields {@code equalityFieldIds}.
     */
    public static FileWriterFactory<Record> equalityDeletes(
            Table table, FileFormat format, int[] equalityFieldIds, Schema rowSchema) {
        return new GenericFileWriterFactory.Builder(table)
                .deleteFileFormat(format)
                .equalityFieldIds(equalityFieldIds)
                .equalityDeleteRowSchema(rowSchema)
                .build();
    }

    /**
     * Writes one key row per value of the long column {@code column} into {@code writer} (an
     * equality-delete writer whose rows have {@code keySchema}), closes it and returns its file:
     * the usual equality delete of test fixtures, keys by id.
     */
    public static DeleteFile writeKeys(
            EqualityDeleteWriter<Record> writer, Schema keySchema, String column, long... values) {
        try (writer) {
            for (long value : values) {
                Record key = GenericRecord.create(keySchema);
                key.setField(column, value);
                writer.write(key);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }
}
