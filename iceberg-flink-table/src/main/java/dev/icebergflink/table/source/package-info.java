/**
 * The read path of SQL: what the dynamic table source of an Iceberg table needs beyond the {@code
 * IcebergSource} itself.
 *
 * <p>Filter push-down ({@link dev.icebergflink.table.source.FlinkFilters}), the source parallelism
 * ({@link dev.icebergflink.table.source.SourceParallelism}), and the conversion of read rows into
 * the types a table declares ({@link dev.icebergflink.table.source.DeclaredTypes}, {@link
 * dev.icebergflink.table.source.DeclaredRowDataConverter}).
 */
package dev.icebergflink.table.source;
