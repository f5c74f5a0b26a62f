package dev.icebergflink.data.avro;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.avro.DataWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;

/**
 * Writes and reads Avro files in tests: Flink rows through {@link FlinkAvroFormatModel}, Iceberg
 * generic records through iceberg-data's own Avro writer and reader.
 */
final class AvroTestFiles {

    static final FormatModel<RowData, RowType> MODEL = FlinkAvroFormatModel.create();

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private AvroTestFiles() {}

    /** A path for a new file in {@code dir} that does not exist yet. */
    static File newFile(Path dir) {
        return dir.resolve("data-" + COUNTER.incrementAndGet() + ".avro").toFile();
    }

    /** Writes Flink rows with our model and returns the file's metrics. */
    static Metrics writeRows(File file, Schema schema, RowType rowType, List<RowData> rows) {
        try {
            FileAppender<RowData> appender =
                    MODEL.writeBuilder(
                                    EncryptedFiles.plainAsEncryptedOutput(Files.localOutput(file)))
                            .schema(schema)
                            .engineSchema(rowType)
                            .content(FileContent.DATA)
                            .build();
            try (appender) {
                appender.addAll(rows);
            }
            return appender.metrics();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a file with our model, without container reuse. */
    static List<RowData> readRows(File file, Schema projection) {
        return readRows(file, projection, null, Map.of());
    }

    /** Reads a file with our model, without container reuse. */
    static List<RowData> readRows(
            File file, Schema projection, RowType engineProjection, Map<Integer, ?> constants) {
        ReadBuilder<RowData, RowType> builder =
                MODEL.readBuilder(Files.localInput(file))
                        .project(projection)
                        .engineProjection(engineProjection)
                        .idToConstant(constants);
        return collect(builder.build());
    }

    /** Writes records with iceberg-data's generic Avro writer and returns the file's metrics. */
    static Metrics writeRecords(File file, Schema schema, List<Record> records) {
        try {
            FileAppender<Record> appender =
                    Avro.write(Files.localOutput(file))
                            .schema(schema)
                            .createWriterFunc(DataWriter::create)
                            .build();
            try (appender) {
                appender.addAll(records);
            }
            return appender.metrics();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a file with iceberg-data's generic Avro reader (registered by Iceberg itself). */
    static List<Record> readRecords(File file, Schema projection) {
        ReadBuilder<Record, Object> builder =
                FormatModelRegistry.readBuilder(
                        FileFormat.AVRO, Record.class, Files.localInput(file));
        return collect(builder.project(projection).build());
    }

    static <T> List<T> collect(CloseableIterable<T> iterable) {
        List<T> result = new ArrayList<>();
        try (CloseableIterable<T> closing = iterable) {
            closing.forEach(result::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }
}
