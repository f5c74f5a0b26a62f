/**
 * Table maintenance, starting from {@link dev.icebergflink.maintenance.Actions#forTable}.
 *
 * <ul>
 *   <li>{@code rewriteDataFiles()}: plans with Iceberg's {@code BinPackRewriteFilePlanner}, reads
 *       and writes in one Flink BATCH job (core's {@code RowDataFileTaskReader} applies deletes,
 *       core's {@code RowDataFileWriterFactory} with Iceberg's rolling writers writes; work units
 *       and written files travel in core's file-task codec), then commits ONE validated {@code
 *       RewriteFiles} from the client. Internals in {@code .rewrite}.
 *   <li>{@code expireSnapshots()}: Iceberg's {@code ExpireSnapshots}; files are deleted by
 *       Iceberg's cleanup on a local thread pool (no Flink job), and the newest Flink checkpoint
 *       commit is kept by default.
 *   <li>{@code deleteOrphanFiles()}: lists with the FileIO's prefix listing, then compares with
 *       everything the metadata references; only files older than the threshold (3 days by default)
 *       qualify. Internals in {@code .cleanup}.
 * </ul>
 */
package dev.icebergflink.maintenance;
