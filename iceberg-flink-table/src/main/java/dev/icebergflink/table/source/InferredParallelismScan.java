package dev.icebergflink.table.source;

import dev.icebergflink.source.IcebergSource;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.data.RowData;

/**
 * The scan of a bounded read whose parallelism was inferred from its splits: the source runs at
 * that parallelism and the operators after it run at the same one, chained to it.
 *
 * <p>It exists because of what Flink does with a parallelism handed over with the source ({@code
 * SourceProvider.of(source, parallelism)}, the way of a {@code scan.parallelism} option): it keeps
 * the operators after the source at the job's default parallelism and, when the two differ,
 * redistributes every row over the network between them. For a parallelism the user chose that is
 * what Flink documents; for one inferred to fit the read to its splits it only costs: a {@code
 * SELECT COUNT(*)} would serialize every row of the table to a separate aggregation task instead of
 * counting it where it was read. A source whose parallelism is set on its own {@link DataStream}
 * leaves the planner to give the filters, projections and pre-aggregations after it the same
 * parallelism, so they chain.
 */
@Internal
final class InferredParallelismScan implements DataStreamScanProvider {

    private final IcebergSource<RowData> source;
    private final int parallelism;
    private final String name;

    /**
     * @param source the bounded read
     * @param parallelism the parallelism inferred for it
     * @param name the source operator's name
     */
    InferredParallelismScan(IcebergSource<RowData> source, int parallelism, String name) {
        this.source = source;
        this.parallelism = parallelism;
        this.name = name;
    }

    @Override
    public DataStream<RowData> produceDataStream(
            ProviderContext providerContext, StreamExecutionEnvironment execEnv) {
        DataStreamSource<RowData> rows =
                execEnv.fromSource(source, WatermarkStrategy.noWatermarks(), name);
        rows.setParallelism(parallelism);
        providerContext.generateUid("source").ifPresent(rows::uid);
        return rows;
    }

    @Override
    public boolean isBounded() {
        return source.getBoundedness() == Boundedness.BOUNDED;
    }
}
