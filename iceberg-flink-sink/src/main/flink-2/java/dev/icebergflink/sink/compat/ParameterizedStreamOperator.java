package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * An {@link AbstractStreamOperator} set up from the {@link StreamOperatorParameters} its factory
 * receives.
 *
 * <p>It exists because the {@code AbstractStreamOperator(StreamOperatorParameters)} constructor is
 * Flink 2.x only; Flink 1.20 has a no-argument constructor and {@code setup(...)}.
 */
@Internal
public abstract class ParameterizedStreamOperator<OUT> extends AbstractStreamOperator<OUT> {

    private static final long serialVersionUID = 1L;

    protected ParameterizedStreamOperator(StreamOperatorParameters<OUT> parameters) {
        super(parameters);
    }
}
