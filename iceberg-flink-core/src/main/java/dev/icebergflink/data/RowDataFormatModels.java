package dev.icebergflink.data;

import dev.icebergflink.data.avro.AvroRowDataFormatModel;
import dev.icebergflink.data.orc.OrcRowDataFormatModel;
import dev.icebergflink.data.parquet.ParquetRowDataFormatModel;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers this connector's {@link RowData} readers and writers for Parquet, ORC and Avro with
 * Iceberg's {@link FormatModelRegistry}, so that Iceberg's registry-based writer factories and read
 * builders work with Flink rows.
 *
 * <p>Registration happens once per class loader; {@link RowDataFileWriterFactory} and {@link
 * RowDataFileReaders} call {@link #ensureRegistered()} before they use the registry.
 */
@Internal
public final class RowDataFormatModels {

    private static final Logger LOG = LoggerFactory.getLogger(RowDataFormatModels.class);

    /** The class through which Iceberg's own Flink module registers its RowData models. */
    private static final String ICEBERG_FLINK_MODULE_MODELS =
            "org.apache.iceberg.flink.data.FlinkFormatModels";

    private static volatile boolean registered;

    private RowDataFormatModels() {}

    /** Registers the RowData models unless this class loader already did. */
    public static void ensureRegistered() {
        if (registered) {
            return;
        }
        synchronized (RowDataFormatModels.class) {
            if (!registered) {
                register(
                        List.of(
                                ParquetRowDataFormatModel::create,
                                ParquetRowDataFormatModel::createBatched,
                                OrcRowDataFormatModel::create,
                                AvroRowDataFormatModel::create));
                registered = true;
            }
        }
    }

    private static void register(List<Supplier<FormatModel<?, RowType>>> models) {
        for (Supplier<FormatModel<?, RowType>> supplier : models) {
            FormatModel<?, RowType> model = supplier.get();
            try {
                FormatModelRegistry.register(model);
                LOG.debug("Registered RowData format model for {}", model.format());
            } catch (IllegalArgumentException e) {
                if (isPresent(ICEBERG_FLINK_MODULE_MODELS)) {
                    // Iceberg's own Flink module registered its RowData models in this class
                    // loader: which connector's readers and writers run would depend on class-path
                    // order, so refuse instead of silently using the other one.
                    throw new IllegalStateException(
                            String.format(
                                    "Cannot register this connector's RowData model for %s files"
                                            + " because Iceberg's own Flink connector (%s, from an"
                                            + " iceberg-flink-runtime jar) is on the same class"
                                            + " path. Remove one of the two connectors.",
                                    model.format(), ICEBERG_FLINK_MODULE_MODELS),
                            e);
                }
                // Registered earlier in this class loader by this connector.
                LOG.debug("RowData format model for {} was already registered", model.format());
            }
        }
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, RowDataFormatModels.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The file formats this connector reads and writes. */
    public static List<FileFormat> supportedFormats() {
        return List.of(FileFormat.PARQUET, FileFormat.ORC, FileFormat.AVRO);
    }
}
