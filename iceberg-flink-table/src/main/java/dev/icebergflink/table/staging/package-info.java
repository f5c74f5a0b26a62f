/**
 * Atomic {@code CREATE TABLE ... AS SELECT} and {@code [CREATE OR] REPLACE TABLE ... AS SELECT}
 * (Flink's {@code SupportsStaging}, on with {@code table.rtas-ctas.atomicity-enabled}): the new
 * table's definition as the catalog would create it, the staged copy of its metadata the writers
 * write for while no catalog holds it, and the {@code StagedTable} that creates or replaces the
 * table with the job's rows in one Iceberg transaction when the job finished, or deletes what the
 * job wrote when it failed.
 */
package dev.icebergflink.table.staging;
