package dev.icebergflink.sink.distribution;

import java.io.Serializable;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;

/**
 * What range distribution needs to know, shared by the statistics operator and its coordinator: the
 * table schema and the sort order that defines the keys (as JSON, so the job graph carries no
 * Iceberg object), the input row type, the number of writers, the per-subtask sample size and the
 * sort-key base weight.
 */
final class RangeSpec implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String schemaJson;
    private final String orderJson;
    private final RowType rowType;
    private final int writers;
    private final int sampleSize;
    private final double baseWeight;

    RangeSpec(
            Schema schema,
            SortOrder order,
            RowType rowType,
            int writers,
            int sampleSize,
            double baseWeight) {
        this.schemaJson = SchemaParser.toJson(schema);
        this.orderJson = SortOrderParser.toJson(order);
        this.rowType = rowType;
        this.writers = writers;
        this.sampleSize = sampleSize;
        this.baseWeight = baseWeight;
    }

    Schema schema() {
        return SchemaParser.fromJson(schemaJson);
    }

    /** A codec for the keys (parses the schema and order). */
    SortKeyCodec codec() {
        Schema schema = schema();
        return new SortKeyCodec(schema, SortOrderParser.fromJson(schema, orderJson));
    }

    RowType rowType() {
        return rowType;
    }

    int writers() {
        return writers;
    }

    int sampleSize() {
        return sampleSize;
    }

    double baseWeight() {
        return baseWeight;
    }
}
