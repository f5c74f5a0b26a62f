package dev.icebergflink.data.parquet;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;

/**
 * Writes and reads Parquet files in tests: RowData through our format model, Records through
 * iceberg-data's generic Parquet writer and reader.
 */
final class ParquetTestFiles {

    static final FormatModel<RowData, RowType> MODEL = FlinkParquetFormatModel.create();

    private ParquetTestFiles() {}

    /** Writes rows with our model; returns the appender's metrics. */
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

    /** Reads every row with our model; each row is an independent object. */
    static List<RowData> readRows(
            File file, Schema projection, RowType rowType, Map<Integer, ?> idToConstant) {
        try (CloseableIterable<RowData> rows =
                MODEL.readBuilder(Files.localInput(file))
                        .project(projection)
                        .engineProjection(rowType)
                        .idToConstant(idToConstant)
                        .build()) {
            List<RowData> result = new ArrayList<>();
            rows.forEach(result::add);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<RowData> readRows(File file, Schema projection) {
        return readRows(file, projection, null, Map.of());
    }

    /** Writes records with iceberg-data's generic Parquet writer; returns its metrics. */
    static Metrics writeRecords(File file, Schema schema, List<Record> records) {
        try {
            FileAppender<Record> appender =
                    Parquet.write(Files.localOutput(file))
                            .schema(schema)
                            .createWriterFunc(GenericParquetWriter::create)
                            .build();
            try (appender) {
                appender.addAll(records);
            }
            return appender.metrics();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads records with iceberg-data's generic model from the registry. */
    static List<Record> readRecords(File file, Schema projection) {
        try (CloseableIterable<Record> records =
                FormatModelRegistry.<Record, Object>readBuilder(
                                FileFormat.PARQUET, Record.class, Files.localInput(file))
                        .project(projection)
                        .build()) {
            List<Record> result = new ArrayList<>();
            records.forEach(result::add);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
