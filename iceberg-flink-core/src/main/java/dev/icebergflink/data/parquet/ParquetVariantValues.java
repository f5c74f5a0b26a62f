package dev.icebergflink.data.parquet;

import dev.icebergflink.compat.FlinkVariants;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.parquet.ParquetValueReader;
import org.apache.iceberg.parquet.ParquetValueReaders;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.TripleWriter;
import org.apache.iceberg.variants.Variant;
import org.apache.parquet.column.ColumnWriteStore;

/**
 * Variant columns of Parquet files as Flink {@code VARIANT} values.
 *
 * <p>It exists so that the connector reads and writes variants with Iceberg's own Parquet variant
 * support rather than a second implementation of the shredding spec: Iceberg's variant reader
 * (built by {@code VariantReaderBuilder}) reassembles shredded and unshredded values into an
 * Iceberg {@link Variant}, and its variant writer (built by {@code VariantWriterBuilder}) writes
 * one; these adapters only hand the value's bytes across (see {@link FlinkVariants}).
 */
final class ParquetVariantValues {

    private ParquetVariantValues() {}

    /** Reads Flink variant values through Iceberg's variant reader of the column. */
    static ParquetValueReader<Object> reader(ParquetValueReader<?> icebergReader) {
        @SuppressWarnings("unchecked")
        ParquetValueReader<Variant> variants = (ParquetValueReader<Variant>) icebergReader;
        return new FlinkVariantReader(variants);
    }

    /** Writes Flink variant values through Iceberg's variant writer of column {@code column}. */
    static ParquetValueWriter<Object> writer(ParquetValueWriter<?> icebergWriter, String column) {
        @SuppressWarnings("unchecked")
        ParquetValueWriter<Variant> variants = (ParquetValueWriter<Variant>) icebergWriter;
        return new FlinkVariantWriter(variants, column);
    }

    /**
     * Converts what Iceberg's variant reader returns. It is a one-field {@link
     * ParquetValueReaders.StructReader} only to take that reader's column iterators and page source
     * along: the variant group's nulls are handled around it (by the option reader).
     */
    private static final class FlinkVariantReader
            extends ParquetValueReaders.StructReader<Object, Object[]> {
        private final Object[] holder = new Object[1];

        private FlinkVariantReader(ParquetValueReader<Variant> variants) {
            super(List.of(variants));
        }

        @Override
        protected Object[] newStructData(Object reuse) {
            holder[0] = null;
            return holder;
        }

        @Override
        protected Object getField(Object[] intermediate, int pos) {
            return intermediate[pos];
        }

        @Override
        protected void set(Object[] intermediate, int pos, Object value) {
            intermediate[pos] = value;
        }

        @Override
        protected Object buildStruct(Object[] intermediate) {
            Object variant = intermediate[0];
            intermediate[0] = null;
            return FlinkVariants.toFlink((Variant) variant);
        }
    }

    private static final class FlinkVariantWriter implements ParquetValueWriter<Object> {
        private final ParquetValueWriter<Variant> variants;
        private final String column;

        private FlinkVariantWriter(ParquetValueWriter<Variant> variants, String column) {
            this.variants = variants;
            this.column = column;
        }

        @Override
        public void write(int repetitionLevel, Object value) {
            variants.write(repetitionLevel, FlinkVariants.toIceberg(value, column));
        }

        @Override
        public List<TripleWriter<?>> columns() {
            return variants.columns();
        }

        @Override
        public void setColumnStore(ColumnWriteStore columnStore) {
            variants.setColumnStore(columnStore);
        }

        @Override
        public Stream<FieldMetrics<?>> metrics() {
            return variants.metrics();
        }
    }
}
