package dev.icebergflink.sink.writer;

import org.apache.flink.annotation.Internal;

/**
 * What a writer does with each row, by its {@link org.apache.flink.types.RowKind}.
 *
 * <p>It exists so that the builder decides the row semantics once (from the table's format version,
 * the equality fields and the upsert/overwrite options) and the writers only follow it.
 */
@Internal
public enum WriterMode {
    /**
     * INSERT and UPDATE_AFTER rows become data rows; any other row kind fails the job with an error
     * that names it (format v1 tables and overwrite mode).
     */
    APPEND,
    /**
     * Input declared insert-only (the planner's changelog mode, or {@code
     * IcebergSink.Builder#insertOnly}): INSERT rows become data rows, written by the same append
     * writer as {@link #APPEND}; any other row kind fails the job with an error saying that the
     * input was declared insert-only. Equality fields play no part: no de-duplication, no deletes.
     */
    INSERT_ONLY,
    /**
     * INSERT and UPDATE_AFTER write an equality delete of the row's key (in the row's partition)
     * and the row; DELETE writes only the key delete; UPDATE_BEFORE is dropped.
     */
    UPSERT,
    /**
     * Changelog into format v2+ tables: INSERT and UPDATE_AFTER write the row; DELETE and
     * UPDATE_BEFORE write an equality delete of the row's key when equality fields are set, else of
     * the whole row (its top-level primitive columns).
     */
    CHANGELOG;

    /**
     * Whether rows only ever become data rows (no delete files): {@link #APPEND}, {@link
     * #INSERT_ONLY}.
     */
    public boolean appendsOnly() {
        return this == APPEND || this == INSERT_ONLY;
    }
}
