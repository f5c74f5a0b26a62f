package dev.icebergflink.sink.distribution;

import dev.icebergflink.data.RowDataStructLike;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.StructLike;

/**
 * Keys rows by their Iceberg partition, for hash distribution: all rows of a partition go to one
 * writer, so each checkpoint writes about one file per partition instead of one per partition and
 * writer.
 *
 * <p>The key is the partition's transformed values joined by {@code /} (e.g. {@code 19723/3} for a
 * day and a bucket), not its human-readable path: rendering the path formats dates and escapes
 * every value, which made the key selector twenty times slower than the partitioning itself
 * (PartitionKeyBenchmark). Equal partitions give equal keys and a key's hash code is the same in
 * every JVM; distinct partitions may rarely share a key, which only sends them to the same writer.
 */
public final class PartitionKeySelector implements KeySelector<RowData, String> {

    private static final long serialVersionUID = 1L;
    private static final HexFormat HEX = HexFormat.of();

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
        return render(partitionKey);
    }

    /** The partition's values joined by {@code /}; binary values as hex of their content. */
    static String render(StructLike partition) {
        StringBuilder key = new StringBuilder(32);
        for (int pos = 0; pos < partition.size(); pos++) {
            if (pos > 0) {
                key.append('/');
            }
            Object value = partition.get(pos, Object.class);
            if (value == null) {
                key.append('\0');
            } else if (value instanceof ByteBuffer buffer) {
                ByteBuffer content = buffer.duplicate();
                byte[] bytes = new byte[content.remaining()];
                content.get(bytes);
                key.append(HEX.formatHex(bytes));
            } else {
                key.append(value);
            }
        }
        return key.toString();
    }
}
