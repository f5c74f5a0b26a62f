package dev.icebergflink.data.orc;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.orc.GenericOrcReader;
import org.apache.iceberg.data.orc.GenericOrcWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.orc.ORC;

/**
 * Writes and reads ORC files in tests: ours through {@link FlinkOrcFormatModel}'s builders, the
 * generic ones through iceberg-data's {@link GenericOrcWriter} / {@link GenericOrcReader}.
 */
final class OrcTestFiles {

    static final FormatModel<RowData, RowType> MODEL = FlinkOrcFormatModel.create();

    private OrcTestFiles() {}

    /** Writes rows with our writer; the Flink row type may be null. Returns the file metrics. */
    static Metrics writeRows(File file, Schema schema, RowType rowType, List<RowData> rows) {
        try {
            FileAppender<RowData> appender =
                    MODEL.writeBuilder(
                                    EncryptedFiles.plainAsEncryptedOutput(Files.localOutput(file)))
                            .schema(schema)
                            .engineSchema(rowType)
                            .content(FileContent.DATA)
                            .overwrite()
                            .build();
            try (appender) {
                appender.addAll(rows);
            }
            return appender.metrics();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<RowData> readRows(File file, Schema projection) {
        return readRows(file, projection, Map.of());
    }

    static List<RowData> readRows(File file, Schema projection, Map<Integer, ?> idToConstant) {
        ReadBuilder<RowData, RowType> builder =
                MODEL.readBuilder(Files.localInput(file)).project(projection);
        if (!idToConstant.isEmpty()) {
            builder.idToConstant(idToConstant);
        }
        return collect(builder.build());
    }

    /** Writes generic records with iceberg-data's ORC writer. Returns the file metrics. */
    static Metrics writeRecords(File file, Schema schema, List<Record> records) {
        try {
            FileAppender<Record> appender =
                    ORC.write(Files.localOutput(file))
                            .schema(schema)
                            .createWriterFunc(GenericOrcWriter::buildWriter)
                            .overwrite()
                            .build();
            try (appender) {
                appender.addAll(records);
            }
            return appender.metrics();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads generic records with iceberg-data's ORC reader. */
    static List<Record> readRecords(File file, Schema projection) {
        return collect(
                ORC.read(Files.localInput(file))
                        .project(projection)
                        .createReaderFunc(
                                fileSchema -> GenericOrcReader.buildReader(projection, fileSchema))
                        .build());
    }

    private static <T> List<T> collect(CloseableIterable<T> iterable) {
        List<T> result = new ArrayList<>();
        try (CloseableIterable<T> closing = iterable) {
            closing.forEach(result::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }
}
