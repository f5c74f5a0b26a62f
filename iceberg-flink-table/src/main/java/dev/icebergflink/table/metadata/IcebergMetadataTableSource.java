package dev.icebergflink.table.metadata;

import dev.icebergflink.TableLoader;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.MetadataTableType;

/**
 * The SQL source of an Iceberg metadata table ({@code SELECT * FROM `t$snapshots`}): a bounded read
 * of all its rows, in one subtask, when the job runs.
 *
 * <p>It exists because metadata tables are small and their scans plan rows rather than data files,
 * so they need none of the split machinery of the {@code IcebergSource}: a single trigger element
 * makes a {@link MetadataTableReader} read the metadata table on a TaskManager. Projections and
 * filters are left to Flink.
 */
@Internal
public final class IcebergMetadataTableSource implements ScanTableSource {

    private final String name;
    private final TableLoader loader;
    private final MetadataTableType type;
    private final RowType rowType;

    /**
     * @param name the metadata table's name, for the operator name
     * @param loader the loader of the table whose metadata is read
     * @param type the metadata table type
     * @param rowType the Flink row type of the metadata table
     */
    public IcebergMetadataTableSource(
            String name, TableLoader loader, MetadataTableType type, RowType rowType) {
        this.name = name;
        this.loader = loader;
        this.type = type;
        this.rowType = rowType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext runtimeProviderContext) {
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment env) {
                SingleOutputStreamOperator<Long> trigger =
                        env.fromSequence(0, 0).name("Trigger " + name).setParallelism(1);
                providerContext.generateUid("metadata-trigger").ifPresent(trigger::uid);
                SingleOutputStreamOperator<RowData> rows =
                        trigger.flatMap(new MetadataTableReader(loader, type))
                                .returns(InternalTypeInfo.of(rowType))
                                .name("Read Iceberg metadata table " + name)
                                .setParallelism(1);
                providerContext.generateUid("metadata-read").ifPresent(rows::uid);
                return rows;
            }

            @Override
            public boolean isBounded() {
                return true;
            }
        };
    }

    @Override
    public DynamicTableSource copy() {
        return new IcebergMetadataTableSource(name, loader, type, rowType);
    }

    @Override
    public String asSummaryString() {
        return "Iceberg metadata table source";
    }
}
