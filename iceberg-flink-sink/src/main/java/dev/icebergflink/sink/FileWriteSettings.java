package dev.icebergflink.sink;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionResolver;
import dev.icebergflink.options.OptionSource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.TableProperties;

/**
 * The file settings among the write options: the file format, the target file size and the
 * compression settings, checked and turned into the table-property names the format writers read.
 *
 * <p>It exists to keep {@link FlinkWriteConf} about what the sink does, and the per-format codec
 * catalogue and its messages (which name the option, where its value came from and the allowed
 * values) in one place.
 */
final class FileWriteSettings {

    private FileWriteSettings() {}

    /** The format of data and delete files ({@code write-format}). */
    static FileFormat format(OptionResolver resolver) {
        return parseFormat(resolver);
    }

    /** The size at which files are rolled ({@code target-file-size-bytes}). */
    static long targetFileSizeBytes(OptionResolver resolver) {
        long target =
                resolver.getOptional(FlinkWriteOptions.TARGET_FILE_SIZE_BYTES)
                        .orElse(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        if (target <= 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value %d for option '%s' (set by %s): the target file size"
                                    + " must be positive",
                            target,
                            FlinkWriteOptions.TARGET_FILE_SIZE_BYTES.key(),
                            describeSource(resolver, FlinkWriteOptions.TARGET_FILE_SIZE_BYTES)));
        }
        return target;
    }

    /**
     * A row group size option ({@code upsert-row-group-size-bytes}, {@code
     * delete-row-group-size-bytes}), or {@code defaultValue} when neither the option, the Flink
     * configuration nor the table property sets it.
     */
    static long rowGroupSizeBytes(
            OptionResolver resolver, ConnectorOption<Long> option, long defaultValue) {
        long size = resolver.getOptional(option).orElse(defaultValue);
        if (size <= 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value %d for option '%s' (set by %s): the row group size"
                                    + " must be a positive number of bytes, e.g. %d",
                            size, option.key(), describeSource(resolver, option), defaultValue));
        }
        return size;
    }

    /**
     * The writer properties that override the table's: format, target size, the row group size of
     * delete files, and the compression settings set by an option or the Flink configuration.
     */
    static Map<String, String> writeProperties(
            OptionResolver resolver, FileFormat format, long targetFileSizeBytes) {
        String formatName = format.name().toLowerCase(Locale.ROOT);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(TableProperties.DEFAULT_FILE_FORMAT, formatName);
        properties.put(
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Long.toString(targetFileSizeBytes));
        // Iceberg's delete writers fall back to the data files' row group size; delete files hold
        // keys or positions only, so they get a small one of their own unless the table sets it
        properties.put(
                TableProperties.DELETE_PARQUET_ROW_GROUP_SIZE_BYTES,
                Long.toString(
                        rowGroupSizeBytes(
                                resolver,
                                FlinkWriteOptions.DELETE_ROW_GROUP_SIZE_BYTES,
                                FlinkWriteOptions.DEFAULT_DELETE_ROW_GROUP_SIZE_BYTES)));
        ConnectorOption<String> codecOption = FlinkWriteOptions.compressionCodecFor(formatName);
        resolver.getOptional(codecOption)
                .ifPresent(
                        codec ->
                                properties.put(
                                        FlinkWriteOptions.codecProperty(formatName),
                                        checkCodec(resolver, codecOption, formatName, codec)));
        String levelProperty = FlinkWriteOptions.levelProperty(formatName);
        if (levelProperty != null) {
            resolver.getOptional(FlinkWriteOptions.compressionLevelFor(formatName))
                    .ifPresent(level -> properties.put(levelProperty, level));
        }
        resolver.getOptional(FlinkWriteOptions.COMPRESSION_STRATEGY)
                .ifPresent(
                        strategy ->
                                properties.put(
                                        TableProperties.ORC_COMPRESSION_STRATEGY,
                                        checkStrategy(strategy)));
        return Collections.unmodifiableMap(properties);
    }

    /**
     * Where an option's value came from, for messages, e.g. {@code table property
     * 'write.format.default'}.
     */
    static String describeSource(OptionResolver resolver, ConnectorOption<?> option) {
        OptionSource source = resolver.sourceOf(option);
        switch (source) {
            case TABLE_PROPERTY:
                return source.describe(option.tableProperty().orElse(option.key()));
            case FLINK_CONFIGURATION:
                return source.describe(option.flinkConfigKey().orElse(option.key()));
            default:
                return source.describe(option.key());
        }
    }

    private static FileFormat parseFormat(OptionResolver resolver) {
        String value =
                resolver.getOptional(FlinkWriteOptions.WRITE_FORMAT)
                        .orElse(TableProperties.DEFAULT_FILE_FORMAT_DEFAULT);
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "parquet":
                return FileFormat.PARQUET;
            case "orc":
                return FileFormat.ORC;
            case "avro":
                return FileFormat.AVRO;
            default:
                throw new IllegalArgumentException(
                        String.format(
                                "Invalid value '%s' for option '%s' (set by %s): allowed values"
                                        + " are parquet, orc, avro",
                                value,
                                FlinkWriteOptions.WRITE_FORMAT.key(),
                                describeSource(resolver, FlinkWriteOptions.WRITE_FORMAT)));
        }
    }

    private static String checkStrategy(String strategy) {
        String normalized = strategy.trim().toLowerCase(Locale.ROOT);
        if (!normalized.equals("speed") && !normalized.equals("compression")) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s': allowed values are speed,"
                                    + " compression",
                            strategy, FlinkWriteOptions.COMPRESSION_STRATEGY.key()));
        }
        return normalized;
    }

    private static String checkCodec(
            OptionResolver resolver, ConnectorOption<String> option, String format, String codec) {
        String normalized = codec.trim().toLowerCase(Locale.ROOT);
        List<String> allowed = CODECS.get(format);
        if (!allowed.contains(normalized)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' (set by %s): %s files allow"
                                    + " the codecs %s",
                            codec,
                            option.key(),
                            describeSource(resolver, option),
                            format,
                            String.join(", ", allowed)));
        }
        return normalized;
    }

    private static final Map<String, List<String>> CODECS =
            Map.of(
                    "parquet",
                    List.of(
                            "uncompressed",
                            "none",
                            "snappy",
                            "gzip",
                            "lzo",
                            "brotli",
                            "lz4",
                            "zstd",
                            "lz4_raw"),
                    "orc",
                    List.of("none", "zlib", "snappy", "lzo", "lz4", "zstd"),
                    "avro",
                    List.of("uncompressed", "snappy", "gzip", "zstd"));
}
