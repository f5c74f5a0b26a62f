package dev.icebergflink.data.parquet;

import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.iceberg.DoubleFieldMetrics;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.FloatFieldMetrics;
import org.apache.iceberg.types.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;

/**
 * One top-level primitive column of a Parquet file, written straight from the typed getter of a
 * Flink row into Parquet's column writer.
 *
 * <p>It exists because the general path (Iceberg's struct writer asking a field getter for each
 * value as an object, an option writer testing it for null, a primitive writer unboxing it) costs a
 * getter call, a box and two virtual hops per value, which is a measurable share of an append's CPU
 * for the flat rows most tables hold. A top-level column has repetition level 0 and definition
 * level 0 (null) or its maximum, so the levels need no bookkeeping. The values written are exactly
 * those of {@link ParquetLeafWriters} and Iceberg's primitive writers for the same columns, and
 * float and double columns keep their NaN counts and bounds for the file's metrics.
 *
 * <p>{@link #forField} picks the columns that take this path; every other field (nested values,
 * decimals, binary, time, uuid, variant, or a Flink type that is not the plain one for the column)
 * stays on the general path.
 */
abstract class ParquetDirectColumn {

    private final ColumnDescriptor descriptor;
    private final int definitionLevel;

    /** Parquet's writer of the column in the current file; set by {@link #setColumnStore}. */
    ColumnWriter column;

    /** The nulls written, for the value and null counts of the field metrics. */
    private long nulls;

    private ParquetDirectColumn(ColumnDescriptor descriptor) {
        this.descriptor = descriptor;
        this.definitionLevel = descriptor.getMaxDefinitionLevel();
    }

    /**
     * The direct writer of a top-level column, or null when the field must go the general way.
     *
     * @param icebergType the Iceberg type of the field
     * @param flinkType the Flink type of the rows' field
     * @param descriptor the Parquet column of the field (top-level, so never repeated)
     * @param fieldId the Iceberg field id, for the metrics of float and double columns
     */
    static ParquetDirectColumn forField(
            Type icebergType, LogicalType flinkType, ColumnDescriptor descriptor, int fieldId) {
        if (descriptor.getMaxRepetitionLevel() != 0 || descriptor.getPath().length != 1) {
            return null;
        }
        PrimitiveType primitive = descriptor.getPrimitiveType();
        LogicalTypeRoot root = flinkType.getTypeRoot();
        switch (icebergType.typeId()) {
            case BOOLEAN:
                return root == LogicalTypeRoot.BOOLEAN ? new Booleans(descriptor) : null;
            case INTEGER:
                return ints(descriptor, root);
            case DATE:
                return root == LogicalTypeRoot.DATE ? new Ints(descriptor) : null;
            case LONG:
                return root == LogicalTypeRoot.BIGINT ? new Longs(descriptor) : null;
            case FLOAT:
                return root == LogicalTypeRoot.FLOAT ? new Floats(descriptor, fieldId) : null;
            case DOUBLE:
                return root == LogicalTypeRoot.DOUBLE ? new Doubles(descriptor, fieldId) : null;
            case STRING:
                return root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR
                        ? new Strings(descriptor)
                        : null;
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return timestamps(descriptor, flinkType, primitive);
            default:
                return null;
        }
    }

    private static ParquetDirectColumn ints(ColumnDescriptor descriptor, LogicalTypeRoot root) {
        switch (root) {
            case INTEGER:
                return new Ints(descriptor);
            case SMALLINT:
                return new Shorts(descriptor);
            case TINYINT:
                return new Bytes(descriptor);
            default:
                return null;
        }
    }

    private static ParquetDirectColumn timestamps(
            ColumnDescriptor descriptor, LogicalType flinkType, PrimitiveType primitive) {
        LogicalTypeRoot root = flinkType.getTypeRoot();
        if ((root != LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        && root != LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                || !(primitive.getLogicalTypeAnnotation()
                        instanceof
                        LogicalTypeAnnotation.TimestampLogicalTypeAnnotation annotation)) {
            return null;
        }
        return new Timestamps(
                descriptor, LogicalTypeChecks.getPrecision(flinkType), annotation.getUnit());
    }

    /** Takes this column's writer out of the file's column store. */
    final void setColumnStore(ColumnWriteStore store) {
        column = store.getColumnWriter(descriptor);
    }

    /** Writes the field {@code pos} of {@code row}: its value, or a null. */
    final void write(RowData row, int pos) {
        if (row.isNullAt(pos)) {
            nulls++;
            column.writeNull(0, definitionLevel - 1);
        } else {
            writeValue(row, pos);
        }
    }

    /** Writes the non-null field {@code pos} of {@code row} at the column's definition level. */
    abstract void writeValue(RowData row, int pos);

    /** The field metrics this column collects for the file (float and double columns only). */
    Stream<FieldMetrics<?>> metrics() {
        return Stream.empty();
    }

    /**
     * {@code metrics} of the values written, counting the nulls in, as Iceberg's option writer does
     * for the metrics of the primitive writer it wraps.
     */
    final <T> FieldMetrics<T> withNulls(FieldMetrics<T> metrics) {
        long nullCount =
                metrics.nullValueCount() < 0
                        ? metrics.nullValueCount()
                        : metrics.nullValueCount() + nulls;
        return new FieldMetrics<>(
                metrics.id(),
                metrics.valueCount() + nulls,
                nullCount,
                metrics.nanValueCount(),
                metrics.lowerBound(),
                metrics.upperBound(),
                metrics.originalType(),
                metrics.avgValueSizeInBytes());
    }

    /** The maximum definition level: the level of a present value. */
    final int definitionLevel() {
        return definitionLevel;
    }

    private static final class Booleans extends ParquetDirectColumn {
        private Booleans(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        @Override
        void writeValue(RowData row, int pos) {
            column.write(row.getBoolean(pos), 0, definitionLevel());
        }
    }

    private static final class Bytes extends ParquetDirectColumn {
        private Bytes(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        @Override
        void writeValue(RowData row, int pos) {
            column.write((int) row.getByte(pos), 0, definitionLevel());
        }
    }

    private static final class Shorts extends ParquetDirectColumn {
        private Shorts(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        @Override
        void writeValue(RowData row, int pos) {
            column.write((int) row.getShort(pos), 0, definitionLevel());
        }
    }

    private static final class Ints extends ParquetDirectColumn {
        private Ints(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        @Override
        void writeValue(RowData row, int pos) {
            column.write(row.getInt(pos), 0, definitionLevel());
        }
    }

    private static final class Longs extends ParquetDirectColumn {
        private Longs(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        @Override
        void writeValue(RowData row, int pos) {
            column.write(row.getLong(pos), 0, definitionLevel());
        }
    }

    private static final class Floats extends ParquetDirectColumn {
        private final FloatFieldMetrics.Builder metrics;

        private Floats(ColumnDescriptor descriptor, int fieldId) {
            super(descriptor);
            this.metrics = new FloatFieldMetrics.Builder(fieldId);
        }

        @Override
        void writeValue(RowData row, int pos) {
            float value = row.getFloat(pos);
            metrics.addValue(value);
            column.write(value, 0, definitionLevel());
        }

        @Override
        Stream<FieldMetrics<?>> metrics() {
            return Stream.of(withNulls(metrics.build()));
        }
    }

    private static final class Doubles extends ParquetDirectColumn {
        private final DoubleFieldMetrics.Builder metrics;

        private Doubles(ColumnDescriptor descriptor, int fieldId) {
            super(descriptor);
            this.metrics = new DoubleFieldMetrics.Builder(fieldId);
        }

        @Override
        void writeValue(RowData row, int pos) {
            double value = row.getDouble(pos);
            metrics.addValue(value);
            column.write(value, 0, definitionLevel());
        }

        @Override
        Stream<FieldMetrics<?>> metrics() {
            return Stream.of(withNulls(metrics.build()));
        }
    }

    /**
     * Strings as UTF-8 bytes. A binary string held in one heap segment (a field of a binary row, or
     * a string made from bytes) is handed over in place; Parquet copies whatever it keeps
     * (dictionary entries, bounds), as the value is marked reused.
     */
    private static final class Strings extends ParquetDirectColumn {
        private Strings(ColumnDescriptor descriptor) {
            super(descriptor);
        }

        @Override
        void writeValue(RowData row, int pos) {
            column.write(utf8(row.getString(pos)), 0, definitionLevel());
        }

        private static Binary utf8(StringData value) {
            if (value instanceof BinaryStringData binary) {
                binary.ensureMaterialized();
                if (binary.getSegments().length == 1 && !binary.getSegments()[0].isOffHeap()) {
                    return Binary.fromReusedByteArray(
                            binary.getSegments()[0].getArray(),
                            binary.getOffset(),
                            binary.getSizeInBytes());
                }
            }
            return Binary.fromReusedByteArray(value.toBytes());
        }
    }

    /** Timestamps of either Flink timestamp type, as a long in the unit of the file column. */
    private static final class Timestamps extends ParquetDirectColumn {
        private final int precision;
        private final TimeUnit unit;

        private Timestamps(ColumnDescriptor descriptor, int precision, TimeUnit unit) {
            super(descriptor);
            this.precision = precision;
            this.unit = unit;
        }

        @Override
        void writeValue(RowData row, int pos) {
            TimestampData value = row.getTimestamp(pos, precision);
            column.write(ParquetLeafWriters.inUnit(value, unit), 0, definitionLevel());
        }
    }
}
