package dev.icebergflink.sink;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * The checks the sink builder runs before the job starts, so that a misconfigured job fails at once
 * instead of after writing files: the input schema fits the table, equality fields exist and can
 * key deletes, and a static partition names identity partition columns (the rules of the write
 * modes are {@link WriteModeRules}). Every message names the column or option at fault.
 */
final class SinkValidation {

    private SinkValidation() {}

    /**
     * The Flink row type of the sink's input: the physical columns of {@code flinkSchema}, checked
     * against the table schema, or the table schema's own type when {@code flinkSchema} is null.
     *
     * @throws IllegalArgumentException naming missing, extra, mistyped and nullable-into-required
     *     columns
     */
    static RowType inputType(Schema tableSchema, ResolvedSchema flinkSchema) {
        if (flinkSchema == null) {
            return FlinkSchemaUtil.convert(tableSchema);
        }
        RowType rowType = (RowType) flinkSchema.toPhysicalRowDataType().getLogicalType();
        List<String> problems = new ArrayList<>();
        List<String> inputNames = rowType.getFieldNames();
        List<Types.NestedField> columns = tableSchema.columns();
        for (String name : inputNames) {
            if (tableSchema.findField(name) == null) {
                problems.add("input column '" + name + "' is not a column of the table");
            }
        }
        for (int i = 0; i < columns.size(); i++) {
            String name = columns.get(i).name();
            int at = inputNames.indexOf(name);
            if (at < 0) {
                problems.add("table column '" + name + "' is missing from the input");
            } else if (at != i) {
                problems.add(
                        "input column '"
                                + name
                                + "' is at position "
                                + at
                                + " but the table has it at "
                                + i);
            }
        }
        if (problems.isEmpty()) {
            Schema writeSchema = FlinkSchemaUtil.convert(tableSchema, flinkSchema);
            try {
                TypeUtil.validateWriteSchema(tableSchema, writeSchema, true, true);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
            if (problems.isEmpty()) {
                checkPrimitiveTypes(tableSchema, writeSchema, rowType, problems);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "The input schema does not fit Iceberg table schema "
                            + tableSchema.asStruct()
                            + ": "
                            + String.join("; ", problems));
        }
        return rowType;
    }

    /**
     * The writers take each primitive column in its own Flink type (plus TINYINT/SMALLINT for int
     * and BINARY(16) for uuid); Iceberg's type promotions (int into long, float into double) are
     * not conversions they perform, so such inputs are rejected here.
     */
    private static void checkPrimitiveTypes(
            Schema tableSchema, Schema writeSchema, RowType rowType, List<String> problems) {
        for (Types.NestedField column : tableSchema.columns()) {
            Type want = column.type();
            Types.NestedField written = writeSchema.findField(column.fieldId());
            if (!want.isPrimitiveType() || written == null) {
                continue;
            }
            Type have = written.type();
            boolean uuidAsFixed =
                    want.typeId() == Type.TypeID.UUID && have.equals(Types.FixedType.ofLength(16));
            if (!have.equals(want) && !uuidAsFixed) {
                problems.add(
                        String.format(
                                "column '%s' has Flink type %s but the table column is %s;"
                                        + " use Flink type %s",
                                column.name(),
                                rowType.getTypeAt(rowType.getFieldIndex(column.name())),
                                want,
                                FlinkSchemaUtil.convert(want).asSummaryString()));
            }
        }
    }

    /**
     * The field ids of the equality fields: the named columns, or else the table's identifier
     * fields.
     *
     * @throws IllegalArgumentException for unknown, nested or non-primitive columns
     */
    static List<Integer> equalityFieldIds(Schema schema, List<String> columns) {
        Set<Integer> ids = new LinkedHashSet<>();
        if (columns == null || columns.isEmpty()) {
            ids.addAll(schema.identifierFieldIds());
        } else {
            for (String column : columns) {
                Types.NestedField field = schema.findField(column);
                if (field == null) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Equality field column '%s' is not a column of the table;"
                                            + " columns are %s",
                                    column,
                                    schema.columns().stream()
                                            .map(Types.NestedField::name)
                                            .collect(Collectors.toList())));
                }
                ids.add(field.fieldId());
            }
        }
        Set<Integer> topLevel =
                schema.columns().stream()
                        .map(Types.NestedField::fieldId)
                        .collect(Collectors.toSet());
        for (int id : ids) {
            Types.NestedField field = schema.findField(id);
            if (!topLevel.contains(id)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Equality field '%s' is nested; this sink supports top-level"
                                        + " equality field columns only",
                                schema.findColumnName(id)));
            }
            if (!field.type().isPrimitiveType()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Equality field column '%s' has type %s; equality fields must be"
                                        + " primitive columns",
                                field.name(), field.type()));
            }
        }
        return new ArrayList<>(ids);
    }

    /** Top-level positions of the given field ids, in table column order. */
    static int[] positions(Schema schema, List<Integer> fieldIds) {
        List<Types.NestedField> columns = schema.columns();
        List<Integer> positions = new ArrayList<>();
        for (int pos = 0; pos < columns.size(); pos++) {
            if (fieldIds.contains(columns.get(pos).fieldId())) {
                positions.add(pos);
            }
        }
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The row filter of a static partition overwrite: each entry names an identity partition column
     * and its value as a string (null means IS NULL).
     */
    static Expression staticPartitionFilter(
            Schema schema, PartitionSpec spec, Map<String, String> partition) {
        if (spec.isUnpartitioned()) {
            throw new IllegalArgumentException(
                    "A static partition overwrite needs a partitioned table, but the table is"
                            + " unpartitioned; use overwrite(true) alone to replace the whole"
                            + " table");
        }
        Expression filter = Expressions.alwaysTrue();
        for (Map.Entry<String, String> entry : partition.entrySet()) {
            String column = entry.getKey();
            Types.NestedField field = schema.findField(column);
            boolean identity =
                    field != null
                            && spec.fields().stream()
                                    .anyMatch(
                                            pf ->
                                                    pf.sourceId() == field.fieldId()
                                                            && pf.transform().isIdentity());
            if (!identity) {
                throw new IllegalArgumentException(
                        String.format(
                                "Static partition column '%s' is not an identity partition"
                                        + " column of the table; identity partition columns"
                                        + " are %s",
                                column,
                                spec.fields().stream()
                                        .filter(pf -> pf.transform().isIdentity())
                                        .map(pf -> schema.findColumnName(pf.sourceId()))
                                        .collect(Collectors.toList())));
            }
            if (entry.getValue() == null) {
                filter = Expressions.and(filter, Expressions.isNull(column));
            } else {
                filter = Expressions.and(filter, Expressions.equal(column, value(field, entry)));
            }
        }
        return filter;
    }

    private static Object value(Types.NestedField field, Map.Entry<String, String> entry) {
        Type type = field.type();
        String text = entry.getValue();
        try {
            switch (type.typeId()) {
                case STRING:
                    return text;
                case BOOLEAN:
                    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                        throw new NumberFormatException(text);
                    }
                    return Boolean.parseBoolean(text);
                case INTEGER:
                    return Integer.parseInt(text.trim());
                case LONG:
                    return Long.parseLong(text.trim());
                case FLOAT:
                    return Float.parseFloat(text.trim());
                case DOUBLE:
                    return Double.parseDouble(text.trim());
                default:
                    Literal<?> literal = Literal.of(text).to(type);
                    if (literal == null) {
                        throw new NumberFormatException(text);
                    }
                    return literal.value();
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Static partition value '%s' of column '%s' is not a valid %s",
                            text, entry.getKey(), type),
                    e);
        }
    }
}
