package dev.icebergflink.sink.distribution;

import dev.icebergflink.sink.writer.RowDataProjection;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Keys rows by their equality fields, so that every change of one key reaches the same writer and
 * the same de-duplication state.
 *
 * <p>The key is a {@code BinaryRowData} of the key columns: its hash is computed from its bytes, so
 * it is the same in every JVM (a {@code GenericRowData}'s hash is not: it includes the row kind's
 * identity hash), as Flink's key-group assignment requires.
 */
public final class EqualityKeySelector implements KeySelector<RowData, RowData> {

    private static final long serialVersionUID = 1L;

    private final RowDataProjection projection;
    private transient RowDataSerializer serializer;

    /** Keys rows of {@code rowType} by the top-level columns at {@code positions}. */
    public EqualityKeySelector(RowType rowType, int[] positions) {
        this.projection = new RowDataProjection(rowType, positions);
    }

    /** The type information of the keys, for {@code keyBy(selector, keyType)}. */
    public TypeInformation<RowData> keyType() {
        return InternalTypeInfo.of(projection.projectedType());
    }

    @Override
    public RowData getKey(RowData row) {
        if (serializer == null) {
            serializer = new RowDataSerializer(projection.projectedType());
        }
        return serializer.toBinaryRow(projection.project(row)).copy();
    }
}
