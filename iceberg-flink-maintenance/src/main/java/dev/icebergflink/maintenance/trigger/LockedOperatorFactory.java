package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TriggerLockFactory;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEventDispatcher;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.OperatorEventHandler;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * Creates the trigger manager or the lock remover, connects it to its {@link LockCoordinator}, and
 * tells Flink to run that coordinator on the JobManager.
 *
 * <p>Flink's {@link SimpleOperatorFactory} sets the operator up the same way on every Flink line;
 * this factory only adds the event gateway and the coordinator.
 */
@Internal
final class LockedOperatorFactory<IN, OUT> extends SimpleOperatorFactory<OUT>
        implements CoordinatedOperatorFactory<OUT>, OneInputStreamOperatorFactory<IN, OUT> {

    private static final long serialVersionUID = 1L;

    private final LockCoordinator.Role role;
    private final String lockName;
    private final TriggerLockFactory lockFactory;

    <O extends OneInputStreamOperator<IN, OUT> & LockedOperator> LockedOperatorFactory(
            O operator,
            LockCoordinator.Role role,
            String lockName,
            TriggerLockFactory lockFactory) {
        super(operator);
        this.role = role;
        this.lockName = lockName;
        this.lockFactory = lockFactory;
    }

    @Override
    public OperatorCoordinator.Provider getCoordinatorProvider(
            String operatorName, OperatorID operatorID) {
        return new LockCoordinator.Provider(operatorID, role, lockName, lockFactory);
    }

    @Override
    public <T extends StreamOperator<OUT>> T createStreamOperator(
            StreamOperatorParameters<OUT> parameters) {
        T operator = super.createStreamOperator(parameters);
        OperatorID id = parameters.getStreamConfig().getOperatorID();
        OperatorEventDispatcher dispatcher = parameters.getOperatorEventDispatcher();
        ((LockedOperator) operator).connect(dispatcher.getOperatorEventGateway(id));
        dispatcher.registerEventHandler(id, (OperatorEventHandler) operator);
        return operator;
    }

    /** An operator that talks to its lock coordinator. */
    interface LockedOperator extends OperatorEventHandler {
        /** Hands the operator the gateway to its coordinator, before it opens. */
        void connect(OperatorEventGateway gateway);
    }
}
