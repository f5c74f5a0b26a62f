package dev.icebergflink;

import dev.icebergflink.types.FlinkToIcebergTypeConverter;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Converts schemas and types between Flink and Iceberg.
 *
 * <p>Flink to Iceberg: BOOLEAN to boolean; TINYINT, SMALLINT and INT to int; BIGINT to long; FLOAT;
 * DOUBLE; CHAR, VARCHAR and STRING to string; BINARY(n) to fixed(n); VARBINARY and BYTES to binary;
 * DECIMAL(p, s); DATE; TIME to time; TIMESTAMP(0..6) to timestamp and TIMESTAMP(7..9) to
 * timestamp_ns; TIMESTAMP_LTZ likewise to timestamptz and timestamptz_ns; ARRAY to list; MAP to
 * map; MULTISET&lt;T&gt; to map&lt;T, int&gt;; ROW to struct; VARIANT to variant. Other types (RAW,
 * INTERVAL, TIMESTAMP WITH TIME ZONE, structured, distinct, NULL, SYMBOL, ...) fail with an {@link
 * dev.icebergflink.types.UnsupportedTypeException} naming the column and the type.
 *
 * <p>Iceberg to Flink: the reverse, with uuid to BINARY(16), fixed(n) to BINARY(n), binary to
 * VARBINARY, string to STRING, time to TIME(3), timestamp to TIMESTAMP(6), timestamptz to
 * TIMESTAMP_LTZ(6) and the nanosecond types to precision 9.
 *
 * <p>Format v3 types: Flink {@code VARIANT} (Flink 2.1 or later) and Iceberg {@code variant} map to
 * each other; on Flink 1.20 an Iceberg {@code variant} column fails naming the column. Iceberg
 * {@code unknown} becomes a nullable {@code STRING} that always reads NULL and is never stored.
 *
 * <p>Nullability, comments and (from Iceberg) field ids are kept. A Flink primary key becomes the
 * Iceberg identifier fields and back.
 */
@PublicEvolving
public final class FlinkSchemaUtil {

    private FlinkSchemaUtil() {}

    /** The Flink row type of rows holding the given Iceberg schema. */
    public static RowType convert(Schema schema) {
        return IcebergToFlinkTypeConverter.convertStruct(schema.asStruct());
    }

    /** The Flink type of an Iceberg type. */
    public static LogicalType convert(Type type) {
        return IcebergToFlinkTypeConverter.convert(type, "");
    }

    /**
     * The Iceberg type of a Flink type. Nested field ids are numbered from 1 in the order Iceberg
     * assigns fresh ids.
     */
    public static Type convert(LogicalType type) {
        AtomicInteger lastId = new AtomicInteger();
        Type converted = new FlinkToIcebergTypeConverter(lastId::incrementAndGet).convert(type, "");
        return TypeUtil.assignFreshIds(converted, new AtomicInteger()::incrementAndGet);
    }

    /** An Iceberg schema with fresh field ids for a Flink row type. */
    public static Schema toSchema(RowType rowType) {
        AtomicInteger lastId = new AtomicInteger();
        Types.StructType struct =
                new FlinkToIcebergTypeConverter(lastId::incrementAndGet).convertRow(rowType);
        return TypeUtil.assignFreshIds(
                new Schema(struct.fields()), new AtomicInteger()::incrementAndGet);
    }

    /**
     * An Iceberg schema with fresh field ids for the physical columns of a Flink schema; its
     * primary key becomes the identifier fields.
     */
    public static Schema convert(ResolvedSchema flinkSchema) {
        RowType rowType = (RowType) flinkSchema.toPhysicalRowDataType().getLogicalType();
        Schema withoutKey = withColumnComments(toSchema(rowType), flinkSchema);
        List<String> keyColumns =
                flinkSchema.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
        return withIdentifierFields(withoutKey, keyColumns);
    }

    /**
     * Converts a Flink schema into an Iceberg schema whose field ids match those of {@code
     * baseSchema} wherever names match, as needed when writing Flink rows into an existing table.
     * Columns that are {@code unknown} in {@code baseSchema} stay {@code unknown}, whatever Flink
     * type they have (Flink sees them as a nullable STRING): nothing is stored for them.
     */
    public static Schema convert(Schema baseSchema, ResolvedSchema flinkSchema) {
        Schema converted = TypeUtil.reassignIds(convert(flinkSchema), baseSchema);
        return new Schema(
                keepUnknown(converted.asStruct(), baseSchema).fields(),
                converted.identifierFieldIds());
    }

    private static Types.StructType keepUnknown(Types.StructType struct, Schema baseSchema) {
        List<Types.NestedField> fields = new ArrayList<>(struct.fields().size());
        for (Types.NestedField field : struct.fields()) {
            Type baseType = baseSchema.findType(field.fieldId());
            Types.NestedField kept = field;
            if (baseType != null && baseType.typeId() == Type.TypeID.UNKNOWN) {
                kept = Types.NestedField.from(field).ofType(Types.UnknownType.get()).build();
            } else if (field.type().isStructType()) {
                kept =
                        Types.NestedField.from(field)
                                .ofType(keepUnknown(field.type().asStructType(), baseSchema))
                                .build();
            }
            fields.add(kept);
        }
        return Types.StructType.of(fields);
    }

    /**
     * A Flink schema of physical columns for an Iceberg schema, with comments, and with a primary
     * key over the identifier fields if there are any.
     */
    public static ResolvedSchema toResolvedSchema(Schema schema) {
        RowType rowType = convert(schema);
        List<Column> columns = new ArrayList<>(rowType.getFieldCount());
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            RowType.RowField field = rowType.getFields().get(i);
            Column column =
                    Column.physical(
                            field.getName(),
                            TypeConversions.fromLogicalToDataType(field.getType()));
            columns.add(field.getDescription().map(column::withComment).orElse(column));
        }
        List<String> keyColumns =
                schema.identifierFieldIds().stream()
                        .sorted(Comparator.comparingInt(id -> indexOfTopLevelField(schema, id)))
                        .map(schema::findColumnName)
                        .collect(Collectors.toList());
        UniqueConstraint primaryKey =
                keyColumns.isEmpty()
                        ? null
                        : UniqueConstraint.primaryKey(
                                "PK_" + String.join("_", keyColumns), keyColumns);
        return new ResolvedSchema(columns, List.of(), primaryKey);
    }

    private static int indexOfTopLevelField(Schema schema, int id) {
        List<Types.NestedField> columns = schema.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).fieldId() == id) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static Schema withColumnComments(Schema schema, ResolvedSchema flinkSchema) {
        List<Types.NestedField> fields = new ArrayList<>(schema.columns().size());
        for (Types.NestedField field : schema.columns()) {
            String comment =
                    flinkSchema
                            .getColumn(field.name())
                            .flatMap(Column::getComment)
                            .orElse(field.doc());
            fields.add(Types.NestedField.from(field).withDoc(comment).build());
        }
        return new Schema(fields);
    }

    private static Schema withIdentifierFields(Schema schema, List<String> keyColumns) {
        if (keyColumns.isEmpty()) {
            return schema;
        }
        Set<Integer> identifierIds = new LinkedHashSet<>();
        for (String column : keyColumns) {
            Types.NestedField field = schema.findField(column);
            if (field == null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Primary key column '%s' is not a physical column of the schema %s",
                                column, schema.asStruct()));
            }
            identifierIds.add(field.fieldId());
        }
        try {
            return new Schema(schema.columns(), identifierIds);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Primary key %s cannot become Iceberg identifier fields: %s. Key columns"
                                    + " must be NOT NULL primitive columns other than FLOAT and"
                                    + " DOUBLE.",
                            keyColumns, e.getMessage()),
                    e);
        }
    }
}
