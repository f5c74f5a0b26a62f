/**
 * The options and settings of the SQL layer: the declared options of catalogs ({@link
 * dev.icebergflink.table.options.FlinkCatalogOptions}) and of {@code 'connector'='iceberg'} tables
 * ({@link dev.icebergflink.table.options.ConnectorTableOptions}), the per-query read and write
 * options of hints ({@link dev.icebergflink.table.options.SqlOptions}), their parsing into settings
 * ({@link dev.icebergflink.table.options.CatalogSettings}) and what the settings resolve to (the
 * Hadoop configuration, the catalog loader, the namespace of a database), and the checks that apply
 * to keys and values: misspelt table properties, paths a shared deployment forbids, and the legacy
 * switches of Iceberg's own connector.
 *
 * <p>It exists so that the catalog and the connector tables accept the same keys and fail the same
 * way, and so that every other SQL package can depend on it without depending on each other. It
 * depends on the core option classes and, for the session switches, on {@link
 * dev.icebergflink.table.FlinkConfigOptions} only.
 */
package dev.icebergflink.table.options;
