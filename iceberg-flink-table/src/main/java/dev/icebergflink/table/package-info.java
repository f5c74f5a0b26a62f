/**
 * Flink SQL integration: the entry points Flink finds and the session options.
 *
 * <p>{@link dev.icebergflink.table.FlinkDynamicTableFactory} (factory identifier {@code iceberg})
 * plans the SQL sources and sinks of Iceberg tables; an {@link
 * dev.icebergflink.table.IcebergTableResolver} tells it where a table comes from: the Iceberg
 * catalog of {@code CREATE CATALOG ... ('type'='iceberg')} (package {@code table.catalog}) or the
 * options of a {@code 'connector'='iceberg'} table ({@link
 * dev.icebergflink.table.ConnectorTableResolver}). {@link
 * dev.icebergflink.table.FlinkConfigOptions} holds the {@code table.exec.iceberg.*} session
 * options.
 *
 * <p>The sub-packages are the layers below: {@code table.catalog} (the Flink catalog and its DDL),
 * {@code table.source} and {@code table.sink} (the read and write paths of SQL), {@code
 * table.metadata} (the read-only {@code t$snapshots}-style metadata tables) and {@code
 * table.options} (the option declarations, their parsing and their checks). The factory does not
 * know the catalog: the catalog depends on this package to hand Flink a factory with its own
 * resolver, and the other sub-packages use this package only for {@code FlinkConfigOptions}.
 */
package dev.icebergflink.table;
