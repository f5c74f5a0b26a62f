/**
 * Iceberg's metadata tables in SQL ({@code SELECT * FROM `t$snapshots`}, {@code `t$files`}, ...):
 * parsing such object names, describing the tables to Flink, and reading them in a bounded job.
 *
 * <p>Metadata tables are read-only and belong to the tables of an Iceberg catalog.
 */
package dev.icebergflink.table.metadata;
