package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlSessionTest {

    @TempDir Path warehouse;

    @Test
    void aRuntimeModeChangeStartsANewEnvironmentWithTheSessionReplayed() {
        Configuration initial = new Configuration();
        initial.set(CoreOptions.DEFAULT_PARALLELISM, 3);
        SqlSession session = new SqlSession(initial);
        // An Iceberg catalog: what statements write into it outlives the TableEnvironment.
        session.execute(
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='"
                        + warehouse.toUri()
                        + "')");
        session.execute("USE CATALOG lake");
        session.execute("CREATE DATABASE db");
        session.execute("USE db");
        session.execute(
                "CREATE TEMPORARY VIEW answers AS SELECT * FROM (VALUES (42)) AS t(answer)");
        assertThat(session.execute("SET 'table.exec.sink.not-null-enforcer' = 'DROP'")).isEmpty();
        TableEnvironment streaming = session.tableEnvironment();
        assertThat(session.runtimeMode()).isEqualTo(RuntimeExecutionMode.STREAMING);

        assertThat(session.execute("SET 'execution.runtime-mode' = 'batch'")).isEmpty();

        TableEnvironment batch = session.tableEnvironment();
        assertThat(batch).isNotSameAs(streaming);
        assertThat(session.runtimeMode()).isEqualTo(RuntimeExecutionMode.BATCH);
        assertThat(batch.getConfig().get(ExecutionOptions.RUNTIME_MODE))
                .isEqualTo(RuntimeExecutionMode.BATCH);
        // The catalog registration and the temporary view are replayed; the current catalog and
        // database are selected again; the earlier SETs and the initial options are kept.
        assertThat(batch.getCurrentCatalog()).isEqualTo("lake");
        assertThat(batch.getCurrentDatabase()).isEqualTo("db");
        assertThat(batch.listTemporaryViews()).containsExactly("answers");
        assertThat(batch.getConfig().getConfiguration().toMap())
                .containsEntry("table.exec.sink.not-null-enforcer", "DROP")
                .containsEntry(CoreOptions.DEFAULT_PARALLELISM.key(), "3");
    }

    @Test
    void settingTheSameRuntimeModeKeepsTheEnvironment() {
        SqlSession session = new SqlSession(new Configuration());
        TableEnvironment before = session.tableEnvironment();

        session.execute("SET 'execution.runtime-mode' = 'streaming'");

        assertThat(session.tableEnvironment()).isSameAs(before);
    }

    @Test
    void anUnknownRuntimeModeIsAnErrorNamingTheAllowedOnes() {
        SqlSession session = new SqlSession(new Configuration());

        assertThatThrownBy(() -> session.execute("SET 'execution.runtime-mode' = 'fast'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "SET 'execution.runtime-mode' must be 'streaming' or 'batch', but was"
                                + " 'fast'");
    }
}
