package dev.icebergflink.sink.writer;

import dev.icebergflink.data.OpenedFiles;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.WriteResult;

/**
 * Writes INSERT and UPDATE_AFTER rows as data rows, one set of rolling files per partition (rows
 * need not be clustered by partition). Any other row kind fails with an error naming it: this
 * writer serves format v1 tables and overwrite mode, which cannot express deletes. For input
 * declared insert-only ({@link WriterMode#INSERT_ONLY}) only INSERT rows are accepted, and the
 * error says that the input was declared insert-only.
 */
final class AppendTaskWriter extends PartitionedRowWriter {

    private final String tableName;
    private final int formatVersion;
    private final boolean insertOnly;

    AppendTaskWriter(
            Table table,
            RowType flinkType,
            FileWriterFactory<RowData> writerFactory,
            OutputFileFactory fileFactory,
            long targetFileSizeBytes,
            OpenedFiles opened,
            boolean insertOnly) {
        super(table, flinkType, writerFactory, fileFactory, targetFileSizeBytes, opened);
        this.tableName = table.name();
        this.formatVersion = formatVersion(table);
        this.insertOnly = insertOnly;
    }

    @Override
    public void write(RowData row) {
        RowKind kind = row.getRowKind();
        if (kind == RowKind.INSERT) {
            writeData(row, partitionOf(row));
            return;
        }
        if (insertOnly) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot write a row of kind %s into table %s: the sink's input was"
                                    + " declared insert-only (IcebergSink.Builder#insertOnly, or"
                                    + " an insert-only SQL query), so only INSERT rows are"
                                    + " allowed. Drop insertOnly(true) to write changelog input.",
                            kind, tableName));
        }
        if (kind != RowKind.UPDATE_AFTER) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot write a row of kind %s into table %s: %s accepts only INSERT"
                                    + " and UPDATE_AFTER rows. Deletes need a format v2+ table,"
                                    + " and are not allowed in overwrite mode.",
                            kind,
                            tableName,
                            formatVersion < 2
                                    ? "a format v" + formatVersion + " table"
                                    : "an append or overwrite sink"));
        }
        writeData(row, partitionOf(row));
    }

    @Override
    void completeDeletes(WriteResult.Builder result) {}

    @Override
    void closeDeletesForAbort() {}

    static int formatVersion(Table table) {
        return TableUtil.formatVersion(table);
    }
}
