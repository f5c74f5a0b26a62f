package dev.icebergflink.sink.distribution;

import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEventDispatcher;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.table.data.RowData;

/**
 * Creates the {@link RangeStatisticsOperator} with its event gateway, and tells Flink to run a
 * {@link RangeStatisticsCoordinator} for it (the reason a factory is needed at all).
 */
final class RangeStatisticsOperatorFactory
        extends AbstractStreamOperatorFactory<Tuple2<Integer, RowData>>
        implements CoordinatedOperatorFactory<Tuple2<Integer, RowData>>,
                OneInputStreamOperatorFactory<RowData, Tuple2<Integer, RowData>> {

    private static final long serialVersionUID = 1L;

    private final RangeSpec spec;

    RangeStatisticsOperatorFactory(RangeSpec spec) {
        this.spec = spec;
    }

    @Override
    public OperatorCoordinator.Provider getCoordinatorProvider(
            String operatorName, OperatorID operatorID) {
        return new RangeStatisticsCoordinator.Provider(operatorID, spec, operatorName);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<Tuple2<Integer, RowData>>> T createStreamOperator(
            StreamOperatorParameters<Tuple2<Integer, RowData>> parameters) {
        OperatorID id = parameters.getStreamConfig().getOperatorID();
        OperatorEventDispatcher dispatcher = parameters.getOperatorEventDispatcher();
        RangeStatisticsOperator operator =
                new RangeStatisticsOperator(
                        parameters, spec, dispatcher.getOperatorEventGateway(id));
        dispatcher.registerEventHandler(id, operator);
        return (T) operator;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return RangeStatisticsOperator.class;
    }
}
