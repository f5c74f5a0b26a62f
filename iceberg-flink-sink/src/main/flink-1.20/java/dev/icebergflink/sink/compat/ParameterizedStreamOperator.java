package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * An {@link AbstractStreamOperator} set up from the {@link StreamOperatorParameters} its factory
 * receives.
 *
 * <p>It exists because the {@code AbstractStreamOperator(StreamOperatorParameters)} constructor is
 * Flink 2.x only; on Flink 1.20 an operator is created empty and then given its task, config,
 * output and processing-time service, which this constructor does.
 */
@Internal
public abstract class ParameterizedStreamOperator<OUT> extends AbstractStreamOperator<OUT> {

    private static final long serialVersionUID = 1L;

    protected ParameterizedStreamOperator(StreamOperatorParameters<OUT> parameters) {
        setProcessingTimeService(parameters.getProcessingTimeService());
        setup(parameters.getContainingTask(), parameters.getStreamConfig(), parameters.getOutput());
    }
}
