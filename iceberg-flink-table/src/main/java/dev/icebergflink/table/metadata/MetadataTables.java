package dev.icebergflink.table.metadata;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.MetadataTableUtils;
import org.apache.iceberg.Table;

/**
 * Opens Iceberg metadata tables ({@code $snapshots}, {@code $files}, ...) and describes them to
 * Flink.
 *
 * <p>It exists to keep the metadata-table rules in one place: the Flink schema is {@code
 * FlinkSchemaUtil}'s conversion of the metadata table's schema, there are no partition keys and no
 * options, and the tables are read-only.
 */
@Internal
public final class MetadataTables {

    private MetadataTables() {}

    /**
     * The metadata table of {@code type} over {@code table}.
     *
     * @throws ValidationException when Iceberg cannot create it for this table
     */
    public static Table open(Table table, MetadataTableType type) {
        try {
            return MetadataTableUtils.createMetadataTableInstance(table, type);
        } catch (RuntimeException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot open metadata table %s of %s: %s",
                            type, table.name(), e.getMessage()),
                    e);
        }
    }

    /**
     * The Flink view of a metadata table.
     *
     * @throws ValidationException when a column type has no Flink equivalent
     */
    public static CatalogTable toCatalogTable(String name, Table metadataTable) {
        ResolvedSchema resolved;
        try {
            resolved = FlinkSchemaUtil.toResolvedSchema(metadataTable.schema());
        } catch (RuntimeException e) {
            throw new ValidationException(
                    String.format(
                            "Metadata table %s cannot be shown to Flink: %s", name, e.getMessage()),
                    e);
        }
        org.apache.flink.table.api.Schema.Builder schema =
                org.apache.flink.table.api.Schema.newBuilder();
        for (Column column : resolved.getColumns()) {
            schema.column(column.getName(), column.getDataType());
            column.getComment().ifPresent(schema::withComment);
        }
        return CatalogTable.newBuilder()
                .schema(schema.build())
                .comment("Iceberg metadata table " + name + " (read-only)")
                .options(Map.of())
                .build();
    }
}
