package dev.icebergflink.source;

import dev.icebergflink.source.reader.RowDataConverter;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.Schema;

/**
 * Creates the converter from the rows the source reads to the records it emits, once the projected
 * schema is known (in {@code IcebergSource.Builder#build()}).
 *
 * @param <T> the emitted record type
 */
@PublicEvolving
@FunctionalInterface
public interface ConverterFactory<T> {

    /** The converter for rows of {@code projectedSchema}. */
    RowDataConverter<T> create(Schema projectedSchema);
}
