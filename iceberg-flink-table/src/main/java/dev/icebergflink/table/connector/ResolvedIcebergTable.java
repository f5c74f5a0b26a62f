package dev.icebergflink.table.connector;

import dev.icebergflink.TableLoader;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Table;

/**
 * The Iceberg table behind a SQL table, as one {@link IcebergTableResolver} found it for the
 * planning of one source or sink.
 *
 * <p>It exists so that the source and the sink get the table, its loader and the per-query options
 * from one load, however the table was found.
 *
 * @param loader a serializable loader of the table, for the job
 * @param table the table as loaded now, for planning
 * @param engineOptions the read and write options of the statement (hints, or the {@code WITH}
 *     options of a connector table)
 */
@Internal
public record ResolvedIcebergTable(
        TableLoader loader, Table table, Map<String, String> engineOptions) {}
