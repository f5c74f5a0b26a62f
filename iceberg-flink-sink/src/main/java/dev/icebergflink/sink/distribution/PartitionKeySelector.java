package dev.icebergflink.sink.distribution;

import dev.icebergflink.data.RowDataStructLike;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;

/**
 * Keys rows by their Iceberg partition (as its path, e.g. {@code dt=2024-01-01/bucket=3}), for hash
 * distribution: all rows of a partition go to one writer, so each checkpoint writes about one file
 * per partition instead of one per partition and writer.
 */
public final class PartitionKeySelector implements KeySelector<RowData, String> {

    private static final long serialVersionUID = 1L;

    private final String schemaJson;
    private final String specJson;
    private final RowType rowType;
    private transient PartitionKey partitionKey;
    private transient RowDataStructLike view;

    public PartitionKeySelector(Schema schema, PartitionSpec spec, RowType rowType) {
        this.schemaJson = SchemaParser.toJson(schema);
        this.specJson = PartitionSpecParser.toJson(spec);
        this.rowType = rowType;
    }

    @Override
    public String getKey(RowData row) {
        if (partitionKey == null) {
            Schema schema = SchemaParser.fromJson(schemaJson);
            partitionKey = new PartitionKey(PartitionSpecParser.fromJson(schema, specJson), schema);
            view = new RowDataStructLike(schema.asStruct(), rowType);
        }
        partitionKey.partition(view.wrap(row));
        return partitionKey.toPath();
    }
}
