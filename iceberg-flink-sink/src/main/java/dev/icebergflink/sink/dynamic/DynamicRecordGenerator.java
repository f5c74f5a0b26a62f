package dev.icebergflink.sink.dynamic;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.util.Collector;

/**
 * Turns each input record of {@code DynamicIcebergSink} into the {@link DynamicRecord}s to write:
 * none (a record to skip), one, or several (a record that touches several tables).
 *
 * <p>It is where a job decides, per record, the table, branch, schema, partition spec and upsert
 * mode; for database replication it typically maps a change event's source table and schema to an
 * Iceberg table and schema. It runs in the sink's first operator, with the input's parallelism, so
 * that the changes of one input partition keep their order.
 *
 * @param <T> the input record type
 */
@PublicEvolving
public interface DynamicRecordGenerator<T> extends Serializable {

    /** Called once per parallel instance before the first record. */
    default void open(OpenContext openContext) throws Exception {}

    /** Emits the records to write for {@code inputRecord}. */
    void generate(T inputRecord, Collector<DynamicRecord> out) throws Exception;
}
