package dev.icebergflink.source.reader;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.RowData;

/**
 * Turns the {@link RowData} the source reads into the type it emits, so that one reader serves
 * {@code RowData}, {@link org.apache.flink.types.Row} and Avro outputs alike.
 *
 * <p>Converters run in the split-fetcher thread, once per record, and must return an object that
 * stays valid after the call (the reader keeps a whole batch of them before they are emitted); they
 * must not keep or mutate the input row.
 *
 * @param <T> the emitted type
 */
@PublicEvolving
public interface RowDataConverter<T> extends Serializable {

    /** The emitted value for one row. */
    T convert(RowData row);

    /** The Flink type of the emitted values. */
    TypeInformation<T> getProducedType();

    /**
     * Whether the emitted values carry the input row's {@link org.apache.flink.types.RowKind}, so
     * that a changelog read ({@code changelog-mode} = all) can tell deletes and updates from
     * inserts. Converters that keep it say so; the default is no.
     */
    default boolean keepsRowKind() {
        return false;
    }
}
