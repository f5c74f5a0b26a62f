/**
 * Reading one Iceberg file task as Flink {@code RowData}, with everything a correct read of a table
 * needs: the task's byte range, projection, partition and metadata constants, the table's name
 * mapping, the task's delete files and its residual filter, and columns widened after the reader
 * was built.
 *
 * <p>It lives in core because more than one module reads file tasks: the source reads the tasks of
 * its splits, the maintenance actions read the tasks they rewrite. {@link
 * dev.icebergflink.tasks.reader.RowDataFileTaskReader} is the entry point; the delete filter and
 * the narrowing of widened columns are its parts.
 */
package dev.icebergflink.tasks.reader;
