package dev.icebergflink.sink;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/**
 * Converts external {@link Row}s into internal {@link RowData} with Flink's own data-structure
 * converters, for {@link FlinkSink#forRow}. The row kind is kept.
 */
final class RowToRowDataMapper extends RichMapFunction<Row, RowData> {

    private static final long serialVersionUID = 1L;

    private final DataType dataType;
    private transient DataStructureConverter<Object, Object> converter;

    RowToRowDataMapper(DataType dataType) {
        this.dataType = dataType;
    }

    @Override
    public void open(OpenContext openContext) {
        converter = DataStructureConverters.getConverter(dataType);
        converter.open(getRuntimeContext().getUserCodeClassLoader());
    }

    @Override
    public RowData map(Row row) {
        return (RowData) converter.toInternalOrNull(row);
    }
}
