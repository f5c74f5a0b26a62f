package dev.icebergflink.table.metadata;

import dev.icebergflink.TableLoader;
import dev.icebergflink.data.row.RowDataConstants;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DataTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Reads every row of one Iceberg metadata table when it receives its (single) trigger element.
 *
 * <p>It exists so that metadata tables are read when the job runs, on a TaskManager, rather than
 * when the query is planned: it loads the table, opens the metadata table, plans its scan and turns
 * each task's {@link StructLike} rows into {@link RowData} with {@link RowDataConstants}.
 */
@Internal
public final class MetadataTableReader extends RichFlatMapFunction<Long, RowData> {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private final MetadataTableType type;

    /**
     * @param loader the loader of the table whose metadata is read
     * @param type the metadata table type
     */
    public MetadataTableReader(TableLoader loader, MetadataTableType type) {
        this.loader = loader;
        this.type = type;
    }

    @Override
    public void flatMap(Long trigger, Collector<RowData> out) throws Exception {
        try (TableLoader opened = loader.clone()) {
            Table metadataTable = MetadataTables.open(opened.loadTable(), type);
            read(metadataTable, out);
        }
    }

    /** Emits every row of the metadata table. */
    static void read(Table metadataTable, Collector<RowData> out) throws Exception {
        TableScan scan = metadataTable.newScan();
        Types.StructType struct = scan.schema().asStruct();
        try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
            for (FileScanTask task : tasks) {
                if (!(task instanceof DataTask dataTask)) {
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Metadata table %s cannot be read through Flink: its scan"
                                            + " plans %s tasks, not rows",
                                    metadataTable.name(), task.getClass().getSimpleName()));
                }
                try (CloseableIterable<StructLike> rows = dataTask.rows()) {
                    for (StructLike row : rows) {
                        out.collect((RowData) RowDataConstants.convert(struct, row));
                    }
                }
            }
        }
    }
}
