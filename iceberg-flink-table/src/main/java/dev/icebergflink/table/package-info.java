/**
 * Flink SQL integration. This package holds what SQL users set by name: {@link
 * dev.icebergflink.table.FlinkConfigOptions}, the {@code table.exec.iceberg.*} session options. The
 * two entry points Flink finds through its factory service sit in the sub-packages named after what
 * they create: {@code table.catalog} ({@code CREATE CATALOG ... ('type'='iceberg')}, the Flink
 * catalog and its DDL) and {@code table.connector} (the dynamic table factory of both catalog
 * tables and {@code 'connector'='iceberg'} tables).
 *
 * <p>The other sub-packages are the layers below them: {@code table.source} and {@code table.sink}
 * (the read and write paths of SQL), {@code table.metadata} (the read-only {@code t$snapshots}
 * style metadata tables) and {@code table.options} (the option declarations, their parsing and
 * their checks). Every sub-package may read the session options here; this package needs none of
 * them, so no dependency runs in a circle.
 */
package dev.icebergflink.table;
