/**
 * Row-level {@code DELETE} and {@code UPDATE} of Iceberg tables in batch mode: the scan context
 * that pins the snapshot a statement reads, the plan of the statement's write, the writers of
 * position deletes, deletion vectors and rewritten files, and the one validated commit per
 * statement. See {@code docs/sql-dml.md}.
 */
package dev.icebergflink.table.dml;
