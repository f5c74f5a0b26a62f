package dev.icebergflink.sink.distribution;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Keys rows by their equality fields, so that every change of one key reaches the same writer and
 * the same de-duplication state.
 *
 * <p>The key is an {@link EqualityKey}: the key columns' values as compact bytes ({@link
 * EqualityKeyEncoder}), whose hash is computed from the bytes, so it is the same in every JVM, as
 * Flink's key-group assignment requires. Its serialized form starts with the key's values and has a
 * fixed length when every key column has a fixed width, which keeps Flink's batch sort of a keyed
 * input cheap.
 */
@Internal
public final class EqualityKeySelector implements KeySelector<RowData, EqualityKey> {

    private static final long serialVersionUID = 1L;

    private final EqualityKeyEncoder encoder;

    /** Keys rows of {@code rowType} by the top-level columns at {@code positions}. */
    public EqualityKeySelector(RowType rowType, int[] positions) {
        this.encoder = new EqualityKeyEncoder(rowType, positions);
    }

    /** The type information of the keys, for {@code keyBy(selector, keyType)}. */
    public TypeInformation<EqualityKey> keyType() {
        return new EqualityKeyTypeInfo(encoder.keyLength());
    }

    @Override
    public EqualityKey getKey(RowData row) {
        return encoder.encode(row);
    }
}
