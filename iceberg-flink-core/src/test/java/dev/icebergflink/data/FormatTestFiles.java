package dev.icebergflink.data;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

/**
 * Writes and reads data files of one format in tests, all through Iceberg's {@link
 * FormatModelRegistry}: Flink rows with this connector's RowData models (registered by {@link
 * RowDataFormatModels}), Iceberg generic records with iceberg-data's own models. One class serves
 * the Parquet, ORC and Avro tests, so every format is written and read the same way.
 */
public final class FormatTestFiles {

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final FileFormat format;

    private FormatTestFiles(FileFormat format) {
        this.format = format;
    }

    /** The helper for files of {@code format}; registers the RowData models. */
    public static FormatTestFiles of(FileFormat format) {
        RowDataFormatModels.ensureRegistered();
        return new FormatTestFiles(format);
    }

    public FileFormat format() {
        return format;
    }

    /** A path in {@code dir} that no file has yet, with the format's extension. */
    public File newFile(Path dir) {
        return dir.resolve(
                        "data-"
                                + COUNTER.incrementAndGet()
                                + "."
                                + format.name().toLowerCase(Locale.ROOT))
                .toFile();
    }

    /**
     * Writes Flink rows with our model; the Flink row type may be null (derived from the schema).
     * Returns the metrics of the written data file.
     */
    public Metrics writeRows(File file, Schema schema, RowType rowType, List<RowData> rows) {
        DataWriter<RowData> writer =
                build(
                        FormatModelRegistry.<RowData, RowType>dataWriteBuilder(
                                        format,
                                        RowData.class,
                                        EncryptedFiles.plainAsEncryptedOutput(
                                                Files.localOutput(file)))
                                .schema(schema)
                                .engineSchema(rowType));
        return write(writer, rows);
    }

    /** Writes records with iceberg-data's generic model; returns the data file's metrics. */
    public Metrics writeRecords(File file, Schema schema, List<Record> records) {
        DataWriter<Record> writer =
                build(
                        FormatModelRegistry.<Record, Object>dataWriteBuilder(
                                        format,
                                        Record.class,
                                        EncryptedFiles.plainAsEncryptedOutput(
                                                Files.localOutput(file)))
                                .schema(schema));
        return write(writer, records);
    }

    /** Reads every row with our model, without container reuse. */
    public List<RowData> readRows(File file, Schema projection) {
        return readRows(file, projection, null, Map.of());
    }

    /** Reads every row with our model, without container reuse. */
    public List<RowData> readRows(
            File file, Schema projection, RowType engineProjection, Map<Integer, ?> constants) {
        return collect(
                rowReader(file)
                        .project(projection)
                        .engineProjection(engineProjection)
                        .idToConstant(constants)
                        .build());
    }

    /** A read builder of our RowData model for {@code file}. */
    public ReadBuilder<RowData, RowType> rowReader(File file) {
        return RowDataFileReaders.readBuilder(format, Files.localInput(file));
    }

    /** Reads records with iceberg-data's generic model. */
    public List<Record> readRecords(File file, Schema projection) {
        return collect(
                FormatModelRegistry.<Record, Object>readBuilder(
                                format, Record.class, Files.localInput(file))
                        .project(projection)
                        .build());
    }

    /** Drains and closes {@code iterable}. */
    public static <T> List<T> collect(CloseableIterable<T> iterable) {
        List<T> result = new ArrayList<>();
        try (CloseableIterable<T> closing = iterable) {
            closing.forEach(result::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }

    private static <T> DataWriter<T> build(
            org.apache.iceberg.formats.FileWriterBuilder<DataWriter<T>, ?> builder) {
        try {
            return builder.spec(PartitionSpec.unpartitioned())
                    .partition(GenericRecord.create(Types.StructType.of()))
                    .overwrite()
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> Metrics write(DataWriter<T> writer, List<T> values) {
        try (writer) {
            values.forEach(writer::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DataFile file = writer.toDataFile();
        return new Metrics(
                file.recordCount(),
                file.columnSizes(),
                file.valueCounts(),
                file.nullValueCounts(),
                file.nanValueCounts(),
                file.lowerBounds(),
                file.upperBounds());
    }
}
