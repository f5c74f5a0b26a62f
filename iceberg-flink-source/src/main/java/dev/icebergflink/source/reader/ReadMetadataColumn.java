package dev.icebergflink.source.reader;

import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * A value a read can append to every row it emits, next to the table's columns: facts about where
 * the row comes from rather than data stored in it. SQL tables read them as {@code METADATA FROM
 * '<key>'} columns.
 *
 * <p>Two kinds exist. The <em>file</em> columns are Iceberg's own metadata columns ({@link
 * MetadataColumns}: {@code _file}, {@code _pos}, {@code _spec_id}, {@code _partition}, {@code
 * _deleted}, {@code _row_id}, {@code _last_updated_sequence_number}); core's file-task reader
 * produces them, because some are per row ({@code _pos}, the row lineage, and {@code _deleted},
 * which also makes the read keep deleted rows). They are added to the read projection after the
 * table's columns ({@link #icebergField}). Requesting {@code _deleted} makes a read return the rows
 * its delete files remove too, flagged {@code true}, as Iceberg's {@code is_deleted} column
 * defines. {@code _partition} is the table's partition tuple in the union of all its specs'
 * partition fields ({@link MetadataColumns#metadataColumn}); fields a file's spec lacks are NULL.
 *
 * <p>The <em>changelog</em> columns ({@link #SNAPSHOT_ID}, {@link #COMMIT_TIME}) name the snapshot
 * whose commit made the change a row reports, so they exist only in changelog reads ({@code
 * 'changelog-mode' = 'all'}), where each split holds the changes of one snapshot; they come from
 * the split's task ({@link #valueOf}). The rows of a changelog read's initial table scan ({@code
 * TABLE_SCAN_THEN_INCREMENTAL}) are the table's state, not the change of one snapshot: they carry
 * NULL. Changelog reads offer no file columns.
 */
@Internal
public enum ReadMetadataColumn {

    /** The id of the snapshot whose commit made the change (BIGINT). */
    SNAPSHOT_ID("snapshot_id", new BigIntType(true)) {
        @Override
        Object valueOf(FileScanTask task) {
            return task instanceof ChangeFileScanTask change ? change.commitSnapshotId() : null;
        }
    },

    /** When that snapshot was committed (TIMESTAMP_LTZ(3)). */
    COMMIT_TIME("commit_time", new LocalZonedTimestampType(true, 3)) {
        @Override
        Object valueOf(FileScanTask task) {
            return task instanceof ChangeFileScanTask change
                    ? TimestampData.fromEpochMillis(change.commitTimestampMillis())
                    : null;
        }
    },

    /** The location of the data file the row was read from (STRING). */
    FILE(MetadataColumns.FILE_PATH.name()),

    /** The row's position in its data file, from 0 (BIGINT). */
    POS(MetadataColumns.ROW_POSITION.name()),

    /** The id of the partition spec the row's data file was written with (INT). */
    SPEC_ID(MetadataColumns.SPEC_ID.name()),

    /** The row's partition values, in the union partition type of all specs (ROW). */
    PARTITION(MetadataColumns.PARTITION_COLUMN_NAME),

    /** Whether a delete file removes the row (BOOLEAN); requesting it keeps deleted rows. */
    DELETED(MetadataColumns.IS_DELETED.name()),

    /** The row's id under v3 row lineage (BIGINT; NULL before the table has lineage). */
    ROW_ID(MetadataColumns.ROW_ID.name()),

    /** The data sequence number of the row's last update under v3 row lineage (BIGINT). */
    LAST_UPDATED_SEQUENCE_NUMBER(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name());

    private final String key;
    private final LogicalType fixedType;

    /** A changelog column with its fixed type. */
    ReadMetadataColumn(String key, LogicalType type) {
        this.key = key;
        this.fixedType = type;
    }

    /** A file column: Iceberg's metadata column of that name. */
    ReadMetadataColumn(String key) {
        this(key, null);
    }

    /** The name SQL uses in {@code METADATA FROM '<key>'}. */
    public String key() {
        return key;
    }

    /** Whether core's file reader produces the value (else it comes from the split's task). */
    public boolean fromFile() {
        return fixedType == null;
    }

    /**
     * Iceberg's metadata column this file column reads, typed for {@code table} ({@code _partition}
     * has the union partition type of its specs).
     *
     * @throws IllegalStateException for a changelog column
     */
    public Types.NestedField icebergField(Table table) {
        if (!fromFile()) {
            throw new IllegalStateException(key + " is not a column of Iceberg's file readers");
        }
        return MetadataColumns.metadataColumn(table, key);
    }

    /** The type of the values for {@code table}, in Flink's internal representation; nullable. */
    public LogicalType type(Table table) {
        if (!fromFile()) {
            return fixedType;
        }
        return IcebergToFlinkTypeConverter.convert(icebergField(table).type(), key).copy(true);
    }

    /**
     * {@code physical} followed by the types of {@code columns} for {@code table}: the type of the
     * rows a read with these metadata columns emits.
     */
    public static RowType appendedTo(
            RowType physical, List<ReadMetadataColumn> columns, Table table) {
        if (columns.isEmpty()) {
            return physical;
        }
        List<RowType.RowField> fields = new ArrayList<>(physical.getFields());
        for (ReadMetadataColumn column : columns) {
            fields.add(new RowType.RowField("$metadata$" + column.key, column.type(table)));
        }
        return new RowType(physical.isNullable(), fields);
    }

    /** The value for every row of {@code task}, in Flink's internal data format. */
    Object valueOf(FileScanTask task) {
        throw new IllegalStateException(key + " is read per row by the file reader");
    }

    /**
     * The column with {@code key}.
     *
     * @throws IllegalArgumentException naming the known keys when there is none
     */
    public static ReadMetadataColumn ofKey(String key) {
        for (ReadMetadataColumn column : values()) {
            if (column.key.equals(key)) {
                return column;
            }
        }
        throw new IllegalArgumentException(
                "Unknown metadata column '"
                        + key
                        + "'; the Iceberg source provides "
                        + Arrays.stream(values())
                                .map(column -> "'" + column.key + "'")
                                .collect(Collectors.joining(", ")));
    }
}
