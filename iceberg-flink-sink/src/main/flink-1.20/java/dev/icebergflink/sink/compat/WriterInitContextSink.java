package dev.icebergflink.sink.compat;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A {@link Sink} that implements only {@code createWriter(WriterInitContext)}.
 *
 * <p>It exists because Flink 1.20 and 2.x declare different abstract writer factories: on 1.20
 * {@code createWriter(Sink.InitContext)} is abstract and {@code createWriter(WriterInitContext)} a
 * default, on 2.x only the latter exists. Flink 1.20's runtime calls the {@code WriterInitContext}
 * variant, so this interface makes that one abstract and retires the deprecated one.
 */
@Internal
public interface WriterInitContextSink<InputT> extends Sink<InputT> {

    @Override
    SinkWriter<InputT> createWriter(WriterInitContext context) throws IOException;

    /** Not used by Flink 1.20's runtime; the deprecated entry point is not supported. */
    @Override
    @Deprecated
    default SinkWriter<InputT> createWriter(Sink.InitContext context) throws IOException {
        throw new UnsupportedOperationException(
                getClass().getName()
                        + " creates its writers from a WriterInitContext only;"
                        + " Sink#createWriter(Sink.InitContext) is not supported on Flink 1.20");
    }
}
