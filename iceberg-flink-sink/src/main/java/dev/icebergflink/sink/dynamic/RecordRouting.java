package dev.icebergflink.sink.dynamic;

import dev.icebergflink.sink.dynamic.RecordResolver.KeyRoute;
import dev.icebergflink.sink.dynamic.RecordResolver.Resolved;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;

/**
 * Turns a {@link DynamicRecord} whose table is ready into the {@link ResolvedRecord} the writers
 * take: the row converted into the table's schema, the branch, the key, and which of the table's
 * writers it goes to.
 *
 * <p>Which writer: rows written by key (upserts, or rows with equality fields) go by a hash of
 * their key whatever the distribution mode, so that every change of a key reaches the one writer
 * that can order them; other rows go by a hash of their partition ({@code HASH} on a partitioned
 * table) or round-robin ({@code NONE}, or {@code HASH} on an unpartitioned table). {@code RANGE} is
 * refused.
 *
 * <p>Not thread-safe: one per operator instance.
 */
@Internal
final class RecordRouting {

    private final String defaultBranch;
    private int roundRobin;

    /**
     * @param defaultBranch the branch of records that name none ({@code toBranch}), null for main
     */
    RecordRouting(String defaultBranch) {
        this.defaultBranch = defaultBranch == null ? SnapshotRef.MAIN_BRANCH : defaultBranch;
    }

    /**
     * The record as the writers take it.
     *
     * @throws IllegalArgumentException naming the table when the record cannot be written as asked
     *     (upsert without equality fields, keys on a format v1 table, RANGE distribution, a write
     *     parallelism below 1, an equality field that is not a top-level column)
     */
    ResolvedRecord route(DynamicRecord record, Resolved resolved) {
        Table table = resolved.table();
        if (record.writeParallelism() < 1) {
            throw new IllegalArgumentException(
                    "Table "
                            + table.name()
                            + ": a DynamicRecord's writeParallelism must be at least 1, got "
                            + record.writeParallelism());
        }
        if (record.distributionMode() == DistributionMode.RANGE) {
            throw new IllegalArgumentException(
                    "Table "
                            + table.name()
                            + ": the dynamic sink distributes rows by NONE or HASH; RANGE is not"
                            + " supported");
        }
        RowData row = resolved.converter().convert(record.rowData());
        boolean keyed = record.upsertMode() || !record.equalityFields().isEmpty();
        KeyRoute key = keyed ? resolved.keyRoute(record.equalityFields()) : null;
        if (keyed) {
            checkKeyed(table, record, key);
        }
        int distributionKey;
        if (keyed) {
            distributionKey = key.hash(row);
        } else if (record.distributionMode() == DistributionMode.HASH
                && table.spec().isPartitioned()) {
            distributionKey = resolved.partitionHash(row);
        } else {
            distributionKey = roundRobin++;
        }
        return new ResolvedRecord(
                record.tableIdentifier(),
                record.branch() != null ? record.branch() : defaultBranch,
                resolved.schemaId(),
                resolved.specId(),
                row,
                record.upsertMode(),
                keyed ? key.fieldIds() : new int[0],
                record.writeParallelism(),
                distributionKey,
                resolved.rowType());
    }

    private static void checkKeyed(Table table, DynamicRecord record, KeyRoute key) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException(
                    "Table "
                            + table.name()
                            + ": upsert mode needs equality fields; set them with"
                            + " DynamicRecord.setEqualityFields or give the table identifier"
                            + " fields");
        }
        int formatVersion = TableUtil.formatVersion(table);
        if (formatVersion < 2) {
            throw new IllegalArgumentException(
                    "Table "
                            + table.name()
                            + " has format version "
                            + formatVersion
                            + "; "
                            + (record.upsertMode() ? "upserts" : "rows with equality fields")
                            + " need format version 2 or later (table property"
                            + " 'format-version')");
        }
    }
}
