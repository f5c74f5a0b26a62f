package dev.icebergflink.source;

import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SourceTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.table.data.RowData;

/**
 * Flink's own source test suite (single and multiple splits, savepoint, scale up and down, metrics,
 * idle readers, TaskManager failure), bounded and unbounded, against a Hadoop-table warehouse,
 * EXACTLY_ONCE only.
 */
class IcebergSourceTestSuiteITCase extends SourceTestSuiteBase<RowData> {

    @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestContext
    ExternalContextFactory<IcebergSourceExternalContext> iceberg =
            testName -> new IcebergSourceExternalContext();

    @TestSemantics
    CheckpointingMode[] semantics = new CheckpointingMode[] {CheckpointingMode.EXACTLY_ONCE};
}
