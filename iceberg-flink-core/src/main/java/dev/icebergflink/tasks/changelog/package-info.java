/**
 * The changes one Iceberg snapshot made to a table's rows, as file tasks: rows a snapshot added,
 * rows of data files it removed, and rows of remaining data files that its new delete files delete.
 *
 * <p>It lives in core because the shape of a change (which file, read with which deletes, selected
 * by which new deletes) is shared by whoever plans changes, ships them in state and reads them: the
 * source plans and reads them, and the split format stores them with core's codecs. {@link
 * dev.icebergflink.tasks.changelog.ChangeFileScanTask} is the unit.
 */
package dev.icebergflink.tasks.changelog;
