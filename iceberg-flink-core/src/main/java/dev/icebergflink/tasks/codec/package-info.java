/**
 * How Iceberg file tasks and content files are written into the connector's state and messages: the
 * one codec that source splits, sink write results and the maintenance actions' work units share,
 * so that a file is serialized the same way wherever it travels.
 *
 * <p>{@link dev.icebergflink.tasks.codec.ContentFileCodec} writes data and delete files (Iceberg's
 * JSON form, optionally with sequence numbers); {@link
 * dev.icebergflink.tasks.codec.FileScanTaskCodec} writes file tasks with their deletes and
 * residuals; {@link dev.icebergflink.tasks.codec.LengthPrefixedStrings} frames strings. Schemas and
 * partition specs are written as ids and found again through a {@link
 * dev.icebergflink.tasks.codec.TableMetadataLookup}, usually a {@link
 * dev.icebergflink.tasks.codec.LoadingTableMetadata} over the table.
 *
 * <p>Changing a layout here changes every state format built on it; the golden-bytes tests of the
 * source and the sink guard them.
 */
package dev.icebergflink.tasks.codec;
