/**
 * The Flink catalog of {@code CREATE CATALOG c WITH ('type'='iceberg', ...)}: Flink databases are
 * Iceberg namespaces and Flink tables are Iceberg tables.
 *
 * <p>{@link dev.icebergflink.table.catalog.FlinkCatalogFactory} builds the catalog from its
 * options; {@link dev.icebergflink.table.catalog.FlinkCatalog} is the facade Flink calls, which
 * hands each kind of operation (databases, tables, {@code ALTER TABLE}, partitions) to a class of
 * its own over the shared open Iceberg catalog, and hands Flink a table factory with this catalog's
 * table resolver. The translation of table definitions and {@code ALTER TABLE} changes between
 * Flink and Iceberg lives here too.
 */
package dev.icebergflink.table.catalog;
