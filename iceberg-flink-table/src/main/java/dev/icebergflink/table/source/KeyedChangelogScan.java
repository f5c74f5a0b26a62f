package dev.icebergflink.table.source;

import dev.icebergflink.source.IcebergSource;
import java.util.stream.IntStream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The scan of a changelog read of a table that declares no primary key: one reader, its rows
 * partitioned by all their physical columns.
 *
 * <p>A changelog read runs on one reader to keep commit order. When the table declares a primary
 * key, Flink itself partitions the reader's rows by that key, so that every change of one key takes
 * one channel to the next operators and stays in order. Without a key Flink refuses a source of
 * fixed parallelism that emits changes; partitioning by the whole row (metadata columns left out)
 * keeps what can be kept: the insert and the later delete of one row take one channel.
 */
@Internal
final class KeyedChangelogScan implements DataStreamScanProvider {

    private final IcebergSource<RowData> source;
    private final String name;
    private final RowType physical;
    private final int physicalFields;

    /**
     * @param source the changelog read
     * @param name the operator name
     * @param physical the physical columns, which come first in the source's rows (metadata columns
     *     may follow)
     */
    KeyedChangelogScan(IcebergSource<RowData> source, String name, RowType physical) {
        this.source = source;
        this.name = name;
        this.physical = physical;
        this.physicalFields = physical.getFieldCount();
    }

    @Override
    public DataStream<RowData> produceDataStream(
            ProviderContext providerContext, StreamExecutionEnvironment execEnv) {
        DataStreamSource<RowData> changes =
                execEnv.fromSource(source, WatermarkStrategy.noWatermarks(), name);
        changes.setParallelism(1);
        providerContext.generateUid("changelog-source").ifPresent(changes::uid);
        return changes.keyBy(
                new PhysicalColumns(physical, physicalFields), InternalTypeInfo.of(physical));
    }

    @Override
    public boolean isBounded() {
        return source.getBoundedness() == Boundedness.BOUNDED;
    }

    /** The physical columns of a row as a binary row of kind INSERT: equal rows, equal keys. */
    private static final class PhysicalColumns implements KeySelector<RowData, RowData> {

        private static final long serialVersionUID = 1L;

        private final RowType physical;
        private final int[] fields;
        private transient RowDataSerializer serializer;
        private transient ProjectedRowData projection;

        PhysicalColumns(RowType physical, int count) {
            this.physical = physical;
            this.fields = IntStream.range(0, count).toArray();
        }

        @Override
        public RowData getKey(RowData row) {
            if (serializer == null) {
                serializer = new RowDataSerializer(physical);
                projection = ProjectedRowData.from(fields);
            }
            // the binary row is copied out of the serializer's reused buffer: the key outlives the
            // call
            BinaryRowData key = serializer.toBinaryRow(projection.replaceRow(row)).copy();
            key.setRowKind(RowKind.INSERT);
            return key;
        }
    }
}
