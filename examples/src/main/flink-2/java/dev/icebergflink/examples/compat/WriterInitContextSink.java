package dev.icebergflink.examples.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * A {@link Sink} that implements only {@code createWriter(WriterInitContext)}: the examples' own
 * copy of the connector's internal adapter, which user code (and so the examples) may not use.
 *
 * <p>It exists because Flink 1.20 and 2.x declare different abstract writer factories: on 2.x
 * {@code createWriter(WriterInitContext)} is the only one, on 1.20 {@code
 * createWriter(Sink.InitContext)} is abstract as well. On 2.x this interface adds nothing.
 */
@Internal
public interface WriterInitContextSink<InputT> extends Sink<InputT> {}
