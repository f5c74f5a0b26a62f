package dev.icebergflink.examples;

import dev.icebergflink.FlinkSchemaUtil;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Field getters of the generated events, to format rows as the examples print them. */
final class ExampleTestingGetters {

    static final RowData.FieldGetter[] EVENTS =
            getters(FlinkSchemaUtil.convert(GeneratedEvents.SCHEMA));

    private ExampleTestingGetters() {}

    static RowData.FieldGetter[] getters(RowType type) {
        RowData.FieldGetter[] getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(type.getTypeAt(i), i);
        }
        return getters;
    }
}
