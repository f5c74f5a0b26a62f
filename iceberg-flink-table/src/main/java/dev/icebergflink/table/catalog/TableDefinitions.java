package dev.icebergflink.table.catalog;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.table.options.CopiedCatalogOption;
import dev.icebergflink.table.options.MetadataSyncOptions;
import dev.icebergflink.table.options.PartitionTerms;
import dev.icebergflink.table.options.TablePropertyNames;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Translates table definitions between Flink and Iceberg: an Iceberg {@link Table} into the {@link
 * CatalogTable} Flink sees, and a Flink {@code CREATE TABLE} into the schema, partition spec,
 * location and properties of a new Iceberg table.
 *
 * <p>It exists to keep the mapping rules in one place:
 *
 * <ul>
 *   <li>columns and types through {@link FlinkSchemaUtil}; the primary key is the identifier
 *       fields;
 *   <li>{@code PARTITIONED BY (a, b)} is identity partitioning on top-level columns; the {@code
 *       partitioning} option takes any spec ({@code 'days(ts), bucket(16, id)'}) and {@code
 *       DISTRIBUTED BY HASH(c) INTO N BUCKETS} adds {@code bucket(N, c)} ({@link PartitionTerms});
 *       a table partitioned by any other transform shows its spec in that option and no partition
 *       keys to Flink;
 *   <li>the table comment is the table property {@code comment};
 *   <li>{@code WITH} options are table properties, except {@code location} (the table location); a
 *       key that looks like a misspelt Iceberg property name is rejected ({@link
 *       TablePropertyNames}); Flink sees the properties plus {@code format-version} as options (so
 *       that {@code CREATE TABLE ... LIKE} copies the format version) but not the location (a copy
 *       must not share it);
 *   <li>computed and metadata columns, watermarks and a {@code connector} option are rejected:
 *       Iceberg cannot store them; only the {@code 'connector'='iceberg'} and {@code src-catalog}
 *       that the catalog reports with its tables ({@link CopiedCatalogOption}) are dropped when a
 *       copy comes back.
 * </ul>
 */
final class TableDefinitions {

    /** The table property that holds the table comment (as Hive and Spark do). */
    static final String COMMENT = "comment";

    /** The {@code WITH} option that sets the table location. */
    static final String LOCATION = "location";

    /** The {@code WITH} option that selects the connector of non-catalog tables. */
    static final String CONNECTOR = "connector";

    private TableDefinitions() {}

    /** What {@code CREATE TABLE} asks Iceberg to create. */
    record NewTable(
            Schema schema, PartitionSpec spec, String location, Map<String, String> properties) {}

    /** The Flink view of an Iceberg table. */
    static CatalogTable toCatalogTable(Table table) {
        Schema schema = table.schema();
        ResolvedSchema resolved = FlinkSchemaUtil.toResolvedSchema(schema);
        Map<String, String> options = new LinkedHashMap<>(table.properties());
        String comment = options.remove(COMMENT);
        options.put(TableProperties.FORMAT_VERSION, String.valueOf(TableUtil.formatVersion(table)));
        PartitionTerms.render(table.spec(), schema)
                .ifPresent(terms -> options.put(PartitionTerms.PARTITIONING.key(), terms));
        return CatalogTable.newBuilder()
                .schema(unresolved(resolved))
                .comment(comment)
                .partitionKeys(identityPartitionKeys(table.spec(), schema))
                .options(options)
                .build();
    }

    /** The unresolved form of a schema of physical columns, keeping comments and the key. */
    private static org.apache.flink.table.api.Schema unresolved(ResolvedSchema resolved) {
        org.apache.flink.table.api.Schema.Builder builder =
                org.apache.flink.table.api.Schema.newBuilder();
        for (Column column : resolved.getColumns()) {
            builder.column(column.getName(), column.getDataType());
            column.getComment().ifPresent(builder::withComment);
        }
        resolved.getPrimaryKey()
                .ifPresent(key -> builder.primaryKeyNamed(key.getName(), key.getColumns()));
        return builder.build();
    }

    /**
     * The Flink partition keys of a spec: the source columns of its identity fields when every
     * field is an identity (or void) transform of a top-level column, else none.
     */
    static List<String> identityPartitionKeys(PartitionSpec spec, Schema schema) {
        return PartitionTerms.identityKeys(spec, schema).orElse(List.of());
    }

    /**
     * The Iceberg table a Flink {@code CREATE TABLE} describes.
     *
     * @throws ValidationException naming the column, option or clause Iceberg cannot store
     */
    /**
     * What to do when Iceberg refuses a new table's schema and a column has a type Iceberg stores
     * only from format version 3 on ({@code VARIANT}, and {@code unknown}): Iceberg's own message
     * names the type and the version, this adds the Flink option that fixes it. Empty when no
     * column has such a type.
     */
    static String formatVersionHint(Schema schema) {
        for (Types.NestedField column : schema.columns()) {
            boolean v3Only =
                    TypeUtil.find(
                                    column.type(),
                                    type ->
                                            type.isVariantType()
                                                    || type.typeId() == Type.TypeID.UNKNOWN)
                            != null;
            if (v3Only) {
                return String.format(
                        ". Column '%s' holds a type that Iceberg stores from format version 3 on"
                                + " (VARIANT): create the table with 'format-version'='3' in its"
                                + " WITH options",
                        column.name());
            }
        }
        return "";
    }

    static NewTable toNewTable(String tableName, CatalogBaseTable table) {
        if (table.getTableKind() != CatalogBaseTable.TableKind.TABLE
                || !(table instanceof CatalogTable catalogTable)) {
            throw new ValidationException(
                    String.format(
                            "Cannot create '%s': an Iceberg catalog stores tables and views, not"
                                    + " %s. Create them in another catalog.",
                            tableName, describeKind(table)));
        }
        if (!(table instanceof ResolvedCatalogTable resolvedTable)) {
            throw new ValidationException(
                    String.format(
                            "Cannot create '%s': the table definition must be resolved by Flink"
                                    + " first (got %s)",
                            tableName, table.getClass().getName()));
        }
        ResolvedSchema flinkSchema = resolvedTable.getResolvedSchema();
        checkPhysicalOnly(tableName, flinkSchema);

        Schema schema = convertSchema(tableName, flinkSchema);
        Map<String, String> properties = new HashMap<>(catalogTable.getOptions());
        if (properties.containsKey(CopiedCatalogOption.KEY)) {
            // copied from an Iceberg catalog's table (CREATE TABLE ... LIKE, or SHOW CREATE TABLE
            // run again): where that table lives, not properties of the new one
            properties = new HashMap<>(CopiedCatalogOption.withoutReported(properties));
        }
        PartitionSpec spec =
                PartitionTerms.spec(
                        String.format("Cannot create '%s'", tableName),
                        schema,
                        catalogTable.getPartitionKeys(),
                        properties.remove(PartitionTerms.PARTITIONING.key()),
                        catalogTable.getDistribution());

        if (properties.containsKey(CONNECTOR)) {
            throw new ValidationException(
                    String.format(
                            "Cannot create '%s' with 'connector'='%s': tables in an Iceberg catalog"
                                    + " are Iceberg tables and take no 'connector' option. Remove it"
                                    + " (with CREATE TABLE ... LIKE, add EXCLUDING OPTIONS), or"
                                    + " create a connector table in another catalog.",
                            tableName, properties.get(CONNECTOR)));
        }
        String location = properties.remove(LOCATION);
        MetadataSyncOptions.reject(
                String.format("Cannot create '%s'", tableName), properties.keySet());
        TablePropertyNames.check(String.format("Cannot create '%s'", tableName), properties);
        String comment = catalogTable.getComment();
        if (comment != null && !comment.isEmpty()) {
            properties.put(COMMENT, comment);
        }
        return new NewTable(schema, spec, location, properties);
    }

    /**
     * Fails when the Flink schema holds anything but physical columns.
     *
     * @throws ValidationException naming the computed or metadata column or the watermark
     */
    static void checkPhysicalOnly(String tableName, ResolvedSchema flinkSchema) {
        for (Column column : flinkSchema.getColumns()) {
            checkPhysical(tableName, column);
        }
        for (WatermarkSpec watermark : flinkSchema.getWatermarkSpecs()) {
            throw new ValidationException(
                    String.format(
                            "Table '%s': watermark on column '%s' (%s) cannot be stored in an"
                                    + " Iceberg catalog. Define watermarks in a query, e.g. with"
                                    + " CREATE TEMPORARY VIEW or a table in another catalog using"
                                    + " CREATE TABLE ... LIKE.",
                            tableName,
                            watermark.getRowtimeAttribute(),
                            watermark.getWatermarkExpression().asSerializableString()));
        }
    }

    /**
     * @throws ValidationException if the column is computed or a metadata column
     */
    static void checkPhysical(String tableName, Column column) {
        if (column instanceof Column.ComputedColumn computed) {
            throw new ValidationException(
                    String.format(
                            "Table '%s': computed column '%s' AS %s cannot be stored in an Iceberg"
                                    + " table, which holds physical columns only. Declare it on a"
                                    + " table of another catalog made with CREATE TABLE ... LIKE"
                                    + " this table, which reads and writes the same Iceberg table.",
                            tableName,
                            column.getName(),
                            computed.getExpression().asSerializableString()));
        }
        if (column instanceof Column.MetadataColumn) {
            throw new ValidationException(
                    String.format(
                            "Table '%s': metadata column '%s' cannot be stored in an Iceberg"
                                    + " table, which holds physical columns only. Declare it on a"
                                    + " table of another catalog made with CREATE TABLE ... LIKE"
                                    + " this table, which reads and writes the same Iceberg table.",
                            tableName, column.getName()));
        }
    }

    private static Schema convertSchema(String tableName, ResolvedSchema flinkSchema) {
        try {
            return FlinkSchemaUtil.convert(flinkSchema);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format("Cannot create '%s': %s", tableName, e.getMessage()), e);
        }
    }

    private static String describeKind(CatalogBaseTable table) {
        return switch (table.getTableKind()) {
            case VIEW -> "views";
            case MATERIALIZED_TABLE -> "materialized tables";
            default -> table.getTableKind().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
