package dev.icebergflink.data;

import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.RegistryBasedFileWriterFactory;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Creates Iceberg data, equality-delete and position-delete file writers that take Flink {@link
 * RowData}, in any of the formats of {@link RowDataFormatModels}.
 *
 * <p>It is Iceberg's registry-based writer factory bound to this connector's RowData models, so
 * file rolling, metrics, encryption and sort-order metadata all come from Iceberg. The factory is
 * serializable when the table is (use {@code SerializableTable.copyOf(table)} before shipping it to
 * tasks).
 */
@Internal
public final class RowDataFileWriterFactory extends RegistryBasedFileWriterFactory<RowData, RowType>
        implements FileWriterFactory<RowData> {

    private static final long serialVersionUID = 1L;

    private RowDataFileWriterFactory(Builder builder, RowType dataType, RowType deleteType) {
        super(
                builder.table,
                builder.dataFileFormat,
                RowData.class,
                builder.dataSchema,
                builder.dataSortOrder,
                builder.deleteFileFormat,
                builder.equalityFieldIds,
                builder.equalityDeleteRowSchema,
                builder.equalityDeleteSortOrder,
                builder.writeProperties,
                dataType,
                deleteType);
    }

    /** Starts a factory for the given table; formats and schema default to the table's. */
    public static Builder builderFor(Table table) {
        RowDataFormatModels.ensureRegistered();
        return new Builder(table);
    }

    /** Configures a {@link RowDataFileWriterFactory}; every setting defaults from the table. */
    public static final class Builder {
        private final Table table;
        private FileFormat dataFileFormat;
        private Schema dataSchema;
        private RowType dataFlinkType;
        private SortOrder dataSortOrder;
        private FileFormat deleteFileFormat;
        private int[] equalityFieldIds;
        private Schema equalityDeleteRowSchema;
        private RowType equalityDeleteFlinkType;
        private SortOrder equalityDeleteSortOrder;
        private Map<String, String> writeProperties;

        private Builder(Table table) {
            this.table = Objects.requireNonNull(table, "table must not be null");
            Map<String, String> properties = table.properties();
            this.dataFileFormat =
                    formatFromProperty(
                            properties,
                            TableProperties.DEFAULT_FILE_FORMAT,
                            TableProperties.DEFAULT_FILE_FORMAT_DEFAULT);
            this.deleteFileFormat =
                    formatFromProperty(
                            properties,
                            TableProperties.DELETE_DEFAULT_FILE_FORMAT,
                            dataFileFormat.name());
            this.dataSchema = table.schema();
            this.dataSortOrder = table.sortOrder();
            this.writeProperties = new HashMap<>(properties);
        }

        /** The format of data files (default: the table's {@code write.format.default}). */
        public Builder dataFileFormat(FileFormat format) {
            this.dataFileFormat = checkSupported(format, "data");
            return this;
        }

        /** The format of delete files (default: {@code write.delete.format.default}). */
        public Builder deleteFileFormat(FileFormat format) {
            this.deleteFileFormat = checkSupported(format, "delete");
            return this;
        }

        /** The Iceberg schema data files are written with (default: the table schema). */
        public Builder dataSchema(Schema schema) {
            this.dataSchema = Objects.requireNonNull(schema, "dataSchema must not be null");
            return this;
        }

        /**
         * The Flink type of the incoming rows, when it differs from the one derived from the data
         * schema (for example TINYINT or CHAR(n) columns).
         */
        public Builder dataFlinkType(RowType rowType) {
            this.dataFlinkType = rowType;
            return this;
        }

        /** The sort order recorded on data files (default: the table's). */
        public Builder dataSortOrder(SortOrder sortOrder) {
            this.dataSortOrder = sortOrder;
            return this;
        }

        /** Field ids of the equality-delete key, needed for equality-delete writers. */
        public Builder equalityFieldIds(int... ids) {
            this.equalityFieldIds = ids == null ? null : Arrays.copyOf(ids, ids.length);
            return this;
        }

        /**
         * The schema of rows in equality-delete files (default: the data schema, that is whole rows
         * are written as deletes).
         */
        public Builder equalityDeleteRowSchema(Schema schema) {
            this.equalityDeleteRowSchema = schema;
            return this;
        }

        /** The Flink type of rows handed to equality-delete writers, if it differs. */
        public Builder equalityDeleteFlinkType(RowType rowType) {
            this.equalityDeleteFlinkType = rowType;
            return this;
        }

        /** The sort order recorded on equality-delete files. */
        public Builder equalityDeleteSortOrder(SortOrder sortOrder) {
            this.equalityDeleteSortOrder = sortOrder;
            return this;
        }

        /**
         * Format settings such as {@code write.parquet.compression-codec} (default: the table
         * properties).
         */
        public Builder writeProperties(Map<String, String> properties) {
            this.writeProperties = new HashMap<>(properties);
            return this;
        }

        /** Validates the settings and creates the factory. */
        public RowDataFileWriterFactory build() {
            if (equalityFieldIds != null && equalityFieldIds.length > 0) {
                if (equalityDeleteRowSchema == null) {
                    equalityDeleteRowSchema = dataSchema;
                }
                for (int id : equalityFieldIds) {
                    if (equalityDeleteRowSchema.findField(id) == null) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Equality field id %d is not a field of the equality-delete"
                                                + " row schema %s",
                                        id, equalityDeleteRowSchema.asStruct()));
                    }
                }
            }
            RowType dataType =
                    dataFlinkType != null
                            ? dataFlinkType
                            : IcebergToFlinkTypeConverter.convertStruct(dataSchema.asStruct());
            RowType deleteType = null;
            if (equalityDeleteRowSchema != null) {
                deleteType =
                        equalityDeleteFlinkType != null
                                ? equalityDeleteFlinkType
                                : sameColumns(equalityDeleteRowSchema, dataSchema)
                                        ? dataType
                                        : IcebergToFlinkTypeConverter.convertStruct(
                                                equalityDeleteRowSchema.asStruct());
            }
            return new RowDataFileWriterFactory(this, dataType, deleteType);
        }

        private static boolean sameColumns(Schema left, Schema right) {
            return TypeUtil.indexById(left.asStruct())
                    .keySet()
                    .equals(TypeUtil.indexById(right.asStruct()).keySet());
        }

        private static FileFormat formatFromProperty(
                Map<String, String> properties, String key, String defaultValue) {
            String value = PropertyUtil.propertyAsString(properties, key, defaultValue);
            try {
                return checkSupported(FileFormat.fromString(value), "table property " + key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        String.format(
                                "Invalid file format '%s' in table property %s; allowed values"
                                        + " are %s",
                                value, key, RowDataFormatModels.supportedFormats()),
                        e);
            }
        }

        private static FileFormat checkSupported(FileFormat format, String what) {
            Objects.requireNonNull(format, what + " file format must not be null");
            if (!RowDataFormatModels.supportedFormats().contains(format)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Unsupported %s file format %s; allowed values are %s",
                                what, format, RowDataFormatModels.supportedFormats()));
            }
            return format;
        }
    }
}
