package dev.icebergflink.data;

import dev.icebergflink.data.avro.FlinkAvroFormatModel;
import dev.icebergflink.data.orc.FlinkOrcFormatModel;
import dev.icebergflink.data.parquet.FlinkParquetFormatModel;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers this connector's {@link RowData} readers and writers for Parquet, ORC and Avro with
 * Iceberg's {@link FormatModelRegistry}, so that Iceberg's registry-based writer factories and
 * read builders work with Flink rows.
 *
 * <p>Registration happens once per class loader; {@link RowDataFileWriterFactory} and {@link
 * RowDataFileReaders} call {@link #ensureRegistered()} before they use the registry.
 */
public final class FlinkFormatModels {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkFormatModels.class);

    private static volatile boolean registered;

    private FlinkFormatModels() {}

    /** Registers the RowData models unless this class loader already did. */
    public static void ensureRegistered() {
        if (registered) {
            return;
        }
        synchronized (FlinkFormatModels.class) {
            if (!registered) {
                register(
                        List.of(
                                FlinkParquetFormatModel::create,
                                FlinkOrcFormatModel::create,
                                FlinkAvroFormatModel::create));
                registered = true;
            }
        }
    }

    private static void register(List<Supplier<FormatModel<RowData, RowType>>> models) {
        for (Supplier<FormatModel<RowData, RowType>> supplier : models) {
            FormatModel<RowData, RowType> model = supplier.get();
            try {
                FormatModelRegistry.register(model);
            } catch (IllegalArgumentException e) {
                // Another RowData model for this format is already registered in this class
                // loader, typically Iceberg's own Flink module sitting next to ours. Ours would
                // silently not be used, which makes results depend on class-path order: refuse.
                throw new IllegalStateException(
                        String.format(
                                "Cannot register this connector's RowData model for %s files: %s."
                                        + " Another Iceberg Flink connector (for example"
                                        + " iceberg-flink-runtime) is on the class path; remove it"
                                        + " or this connector.",
                                model.format(), e.getMessage()),
                        e);
            }
            LOG.debug("Registered RowData format model for {}", model.format());
        }
    }

    /** The file formats this connector reads and writes. */
    public static List<FileFormat> supportedFormats() {
        return List.of(FileFormat.PARQUET, FileFormat.ORC, FileFormat.AVRO);
    }
}
