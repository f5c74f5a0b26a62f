package dev.icebergflink.source.reader;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;

/**
 * Emits Flink {@link Row}s, for DataStream users who want external Java types ({@code String},
 * {@code LocalDate}, {@code LocalDateTime}, {@code Instant}, {@code BigDecimal}, ...) instead of
 * Flink's internal data structures.
 *
 * <p>The conversion is Flink's own {@link DataStructureConverters} for the row type's default
 * conversion classes, so values match what the Table API would hand out for the same type.
 */
@Internal
public final class RowConverter implements RowDataConverter<Row> {

    private static final long serialVersionUID = 1L;

    private final DataType dataType;
    private transient DataStructureConverter<Object, Object> converter;

    /** A converter for rows of {@code rowType}. */
    public RowConverter(RowType rowType) {
        this.dataType =
                TypeConversions.fromLogicalToDataType(Objects.requireNonNull(rowType, "rowType"));
    }

    @Override
    public Row convert(RowData row) {
        if (converter == null) {
            DataStructureConverter<Object, Object> created =
                    DataStructureConverters.getConverter(dataType);
            created.open(RowConverter.class.getClassLoader());
            converter = created;
        }
        return (Row) converter.toExternal(row);
    }

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<Row> getProducedType() {
        return (TypeInformation<Row>) (TypeInformation<?>) ExternalTypeInfo.of(dataType);
    }

    /** Flink's row converter copies the kind into the {@link Row}. */
    @Override
    public boolean keepsRowKind() {
        return true;
    }
}
