package dev.icebergflink.source.reader;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * Emits the rows as read: the converter of {@code IcebergSource.forRowData()}. Its produced type is
 * Flink's internal row type info, so rows are serialized with Flink's efficient {@code RowData}
 * serializer rather than a generic fallback.
 */
@Internal
public final class IdentityRowDataConverter implements RowDataConverter<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;

    /** An identity converter for rows of {@code rowType}. */
    public IdentityRowDataConverter(RowType rowType) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
    }

    @Override
    public RowData convert(RowData row) {
        return row;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }

    /** The rows are emitted as read, kind included. */
    @Override
    public boolean keepsRowKind() {
        return true;
    }
}
