package dev.icebergflink.table.dml;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.reader.ReadMetadataColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink.SinkRuntimeProvider;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelDelete;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.iceberg.IsolationLevel;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * The sink side of one row-level statement, decided while planning: which columns the planner must
 * send (the metadata columns {@code _file} and {@code _pos}, plus every physical column for {@code
 * UPDATE}, whose changed rows are re-inserted), the checks that refuse what cannot run, and the
 * runtime: rows distributed by data file to the writers ({@link RowLevelWriteOperator}), whose
 * results one committer commits ({@link RowLevelCommitOperator}).
 */
@Internal
public final class RowLevelWrite {

    private final String tableName;
    private final TableLoader loader;
    private final Table table;
    private final int formatVersion;
    private final RowType declared;
    private final DmlOperation operation;
    private final RowLevelScanContext scan;
    private final String statementId = UUID.randomUUID().toString();

    private RowLevelWrite(
            String tableName,
            TableLoader loader,
            Table table,
            int formatVersion,
            RowType declared,
            DmlOperation operation,
            RowLevelScanContext scan) {
        this.tableName = tableName;
        this.loader = loader;
        this.table = table;
        this.formatVersion = formatVersion;
        this.declared = declared;
        this.operation = operation;
        this.scan = scan;
    }

    /**
     * The write of a {@code DELETE} or {@code UPDATE} on {@code table}.
     *
     * @param tableName the table, for messages
     * @param loader the loader of the Iceberg table
     * @param table the table as loaded while planning
     * @param formatVersion the table's format version
     * @param declared the declared physical columns
     * @param primaryKey the declared primary key columns (empty for none)
     * @param upsert whether the table is written in upsert mode
     * @param branch the branch the write options name
     * @param streamingMode whether the statement runs in streaming mode
     * @param operation the statement
     * @param updatedColumns the columns an {@code UPDATE} sets (empty for {@code DELETE})
     * @param context what the statement's scan handed over
     * @throws ValidationException when the statement cannot run, naming why and what to do
     */
    public static RowLevelWrite plan(
            String tableName,
            TableLoader loader,
            Table table,
            int formatVersion,
            RowType declared,
            List<String> primaryKey,
            boolean upsert,
            String branch,
            boolean streamingMode,
            DmlOperation operation,
            List<Column> updatedColumns,
            RowLevelModificationScanContext context) {
        if (streamingMode) {
            throw new ValidationException(
                    String.format(
                            "Table %s: %s runs in batch mode only (one validated commit at the end"
                                    + " of a bounded job); SET 'execution.runtime-mode' = 'batch'",
                            tableName, operation));
        }
        if (!(context instanceof RowLevelScanContext scan)) {
            throw new ValidationException(
                    String.format(
                            "Table %s: %s needs the statement to read the table through its"
                                    + " Iceberg source, which pins the snapshot the statement"
                                    + " changes",
                            tableName, operation));
        }
        if (branch != null && !"main".equals(branch)) {
            throw new ValidationException(
                    String.format(
                            "Table %s: %s changes the main branch only, but the write options name"
                                    + " branch '%s'; remove the 'branch' option",
                            tableName, operation, branch));
        }
        if (upsert) {
            for (Column column : updatedColumns) {
                if (primaryKey.contains(column.getName())) {
                    throw new ValidationException(
                            String.format(
                                    "Table %s: UPDATE cannot set the primary key column '%s' of an"
                                            + " upsert table (the key identifies the row); delete"
                                            + " the row and insert the new one instead",
                                    tableName, column.getName()));
                }
            }
        }
        if (operation == DmlOperation.UPDATE) {
            checkWritableTypes(tableName, table, declared);
        }
        return new RowLevelWrite(
                tableName, loader, table, formatVersion, declared, operation, scan);
    }

    private static void checkWritableTypes(String tableName, Table table, RowType declared) {
        RowType icebergType = FlinkSchemaUtil.convert(table.schema());
        List<LogicalType> expected = icebergType.getChildren();
        List<LogicalType> actual = declared.getChildren();
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            if (i >= expected.size()
                    || i >= actual.size()
                    || !expected.get(i).copy(true).equals(actual.get(i).copy(true))) {
                throw new ValidationException(
                        String.format(
                                "Table %s: UPDATE needs the declared columns to have the Iceberg"
                                        + " columns' types, but they are %s and %s; update the"
                                        + " table through its catalog table",
                                tableName, declared, icebergType));
            }
        }
    }

    /** What the planner must send for a {@code DELETE}. */
    public SupportsRowLevelDelete.RowLevelDeleteInfo deleteInfo() {
        List<Column> required = metadataColumns();
        return new SupportsRowLevelDelete.RowLevelDeleteInfo() {
            @Override
            public Optional<List<Column>> requiredColumns() {
                return Optional.of(required);
            }

            @Override
            public SupportsRowLevelDelete.RowLevelDeleteMode getRowLevelDeleteMode() {
                return SupportsRowLevelDelete.RowLevelDeleteMode.DELETED_ROWS;
            }
        };
    }

    /** What the planner must send for an {@code UPDATE}: the new row, then its old location. */
    public SupportsRowLevelUpdate.RowLevelUpdateInfo updateInfo() {
        List<Column> required = new ArrayList<>();
        for (RowType.RowField field : declared.getFields()) {
            required.add(
                    Column.physical(
                            field.getName(),
                            TypeConversions.fromLogicalToDataType(field.getType())));
        }
        required.addAll(metadataColumns());
        return new SupportsRowLevelUpdate.RowLevelUpdateInfo() {
            @Override
            public Optional<List<Column>> requiredColumns() {
                return Optional.of(required);
            }

            @Override
            public SupportsRowLevelUpdate.RowLevelUpdateMode getRowLevelUpdateMode() {
                return SupportsRowLevelUpdate.RowLevelUpdateMode.UPDATED_ROWS;
            }
        };
    }

    private List<Column> metadataColumns() {
        List<Column> columns = new ArrayList<>();
        for (ReadMetadataColumn column : List.of(ReadMetadataColumn.FILE, ReadMetadataColumn.POS)) {
            columns.add(
                    Column.metadata(
                            column.key(),
                            TypeConversions.fromLogicalToDataType(column.type(table)),
                            column.key(),
                            false));
        }
        return columns;
    }

    /** The runtime, with the filters the scan pushed by now. */
    public SinkRuntimeProvider runtimeProvider() {
        DmlPlan plan = runtimePlan();
        // an anonymous class: on Flink 1.20 DataStreamSinkProvider is not a functional interface
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(
                    ProviderContext providerContext, DataStream<RowData> input) {
                int fileIndex = plan.fileIndex();
                SingleOutputStreamOperator<byte[]> written =
                        input.keyBy(
                                        (KeySelector<RowData, String>)
                                                row -> row.getString(fileIndex).toString(),
                                        Types.STRING)
                                .transform(
                                        "Iceberg " + plan.operation() + " writer: " + tableName,
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                                        new RowLevelWriteOperator(plan));
                SingleOutputStreamOperator<Void> committed =
                        written.transform(
                                        "Iceberg " + plan.operation() + " commit: " + tableName,
                                        Types.VOID,
                                        new RowLevelCommitOperator(plan))
                                .setParallelism(1)
                                .setMaxParallelism(1);
                return committed
                        .sinkTo(new DiscardingSink<>())
                        .setParallelism(1)
                        .name("Iceberg " + plan.operation() + " end: " + tableName);
            }
        };
    }

    DmlPlan runtimePlan() {
        int physical = operation == DmlOperation.UPDATE ? declared.getFieldCount() : 0;
        String isolationProperty =
                operation == DmlOperation.DELETE
                        ? TableProperties.DELETE_ISOLATION_LEVEL
                        : TableProperties.UPDATE_ISOLATION_LEVEL;
        IsolationLevel isolation =
                IsolationLevel.fromName(
                        table.properties()
                                .getOrDefault(
                                        isolationProperty,
                                        TableProperties.DELETE_ISOLATION_LEVEL_DEFAULT));
        Expression filter =
                scan.snapshotId() == null
                        ? Expressions.alwaysTrue()
                        : scan.conflictDetectionFilter();
        return new DmlPlan(
                tableName,
                loader,
                operation,
                formatVersion,
                scan.snapshotId(),
                filter,
                isolation,
                statementId,
                operation == DmlOperation.UPDATE ? declared : null,
                physical,
                physical + 1);
    }
}
