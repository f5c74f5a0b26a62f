package dev.icebergflink.sink.distribution;

import dev.icebergflink.data.row.RowDataPartitioner;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;

/**
 * Keys rows by a hash of their Iceberg partition, for hash distribution: all rows of a partition go
 * to one writer, so each checkpoint writes about one file per partition instead of one per
 * partition and writer.
 *
 * <p>The key is {@link RowDataPartitioner.Key#hashCode()}: a hash of the partition's transformed
 * values that is the same in every JVM (for a single string partition field, the value's {@link
 * String#hashCode()}). It is computed from the row without rendering the partition path or decoding
 * ASCII strings: rendering the path formatted dates and escaped every value, twenty times the cost
 * of the partitioning itself (PartitionKeyBenchmark). Distinct partitions may share a key, which
 * only sends them to the same writer.
 */
@Internal
public final class PartitionKeySelector implements KeySelector<RowData, Integer> {

    private static final long serialVersionUID = 1L;

    private final String schemaJson;
    private final String specJson;
    private final RowType rowType;
    private transient RowDataPartitioner partitioner;

    public PartitionKeySelector(Schema schema, PartitionSpec spec, RowType rowType) {
        this.schemaJson = SchemaParser.toJson(schema);
        this.specJson = PartitionSpecParser.toJson(spec);
        this.rowType = rowType;
    }

    @Override
    public Integer getKey(RowData row) {
        if (partitioner == null) {
            Schema schema = SchemaParser.fromJson(schemaJson);
            partitioner =
                    new RowDataPartitioner(
                            PartitionSpecParser.fromJson(schema, specJson), schema, rowType);
        }
        return partitioner.key(row).hashCode();
    }
}
