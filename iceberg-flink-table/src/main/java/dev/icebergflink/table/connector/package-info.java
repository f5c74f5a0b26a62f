/**
 * The dynamic table factory (identifier {@code iceberg}) and where a SQL table comes from.
 *
 * <p>{@link dev.icebergflink.table.connector.FlinkDynamicTableFactory} plans the SQL sources and
 * sinks of Iceberg tables. It asks an {@link dev.icebergflink.table.connector.IcebergTableResolver}
 * for the table, its loader and its per-query options: the Iceberg catalog supplies one for its
 * tables ({@code table.catalog}), and {@link
 * dev.icebergflink.table.connector.ConnectorTableResolver} serves {@code 'connector'='iceberg'}
 * tables from their options. The factory therefore knows no catalog class, and the catalog depends
 * on this package only to hand Flink a factory with its own resolver.
 */
package dev.icebergflink.table.connector;
