package dev.icebergflink.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.table.testing.TestingLogCapture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog created with secrets (the REST OAuth credential, an S3 secret key, a token, a JDBC
 * password) shows none of them in what SQL prints or logs: {@code SHOW CREATE TABLE}, {@code
 * DESCRIBE}, {@code EXPLAIN}, the job graph's vertex names and descriptions, the execution plan,
 * error messages of failing statements, and every log line of the connector, Iceberg and Flink's
 * table stack while the statements run. (Iceberg's Hadoop catalog takes the secrets as properties
 * it does not use, which is all these paths need.)
 */
class SecretsNeverShownTest {

    private static final List<String> SECRETS =
            List.of("CredSecret1", "S3Secret2", "TokenSecret3", "JdbcSecret4");

    @TempDir Path dir;

    @Test
    void noSecretInShowCreateExplainJobGraphErrorsOrLogs() throws Exception {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        List<String> shown = new ArrayList<>();

        try (TestingLogCapture logs =
                TestingLogCapture.everything(
                        "dev.icebergflink", "org.apache.iceberg", "org.apache.flink.table")) {
            sql.executeSql(
                    "CREATE CATALOG lake WITH ("
                            + catalogOptions()
                            + ", 'credential-secret'='client:CredSecret1',"
                            + " 's3.secret-access-key'='S3Secret2',"
                            + " 'jdbc.password'='JdbcSecret4')");
            sql.executeSql(
                    "CREATE TABLE lake.`default`.t (id BIGINT, data STRING, PRIMARY KEY (id) NOT"
                            + " ENFORCED) WITH ('format-version'='2')");

            shown.addAll(rows(sql.executeSql("SHOW CREATE TABLE lake.`default`.t")));
            shown.addAll(rows(sql.executeSql("DESCRIBE lake.`default`.t")));
            String insert =
                    "INSERT INTO lake.`default`.t /*+ OPTIONS('upsert-enabled'='true') */"
                            + " VALUES (1, 'a')";
            shown.add(sql.explainSql(insert));
            shown.add(sql.explainSql("SELECT * FROM lake.`default`.t"));
            shown.add(sql.explainSql("SELECT * FROM lake.`default`.`t$snapshots`"));

            StreamStatementSet statements = sql.createStatementSet();
            statements.addInsertSql(insert);
            statements.attachAsDataStream();
            shown.add(env.getExecutionPlan());
            JobGraph jobGraph = env.getStreamGraph().getJobGraph();
            for (JobVertex vertex : jobGraph.getVertices()) {
                shown.add(vertex.getName());
                shown.add(String.valueOf(vertex.getOperatorDescription()));
                shown.add(String.valueOf(vertex.getOperatorPrettyName()));
            }

            // failing statements: our validation and Flink's wrappers around it
            shown.add(error(() -> sql.explainSql(insert.replace("'true'", "'maybe'"))));
            shown.add(
                    error(
                            () ->
                                    sql.explainSql(
                                            "SELECT * FROM lake.`default`.t"
                                                    + " /*+ OPTIONS('streaming'='yes') */")));
            shown.add(error(() -> sql.explainSql("SELECT * FROM lake.`default`.missing")));
            shown.add(
                    error(
                            () ->
                                    sql.executeSql(
                                            String.format(
                                                    "CREATE CATALOG broken WITH ('type'='iceberg',"
                                                            + " 'catalog-type'='hadoop',"
                                                            + " 'credential-secret'='client:CredSecret1',"
                                                            + " 's3.secret-access-key'='S3Secret2',"
                                                            + " 'token'='TokenSecret3',"
                                                            + " 'jdbc.password'='JdbcSecret4')"))));
            shown.add(sql.getCatalog("lake").orElseThrow().toString());
            shown.addAll(runJobs(sql));
            shown.addAll(logs.lines());
            assertThat(logs.lines()).as("log lines captured").isNotEmpty();
        }

        assertThat(String.join("\n", shown))
                .contains("lake.default.t")
                .doesNotContain(SECRETS.get(0))
                .doesNotContain(SECRETS.get(1))
                .doesNotContain(SECRETS.get(2))
                .doesNotContain(SECRETS.get(3));
    }

    /**
     * The catalog's type and location options, with {@code TokenSecret3} somewhere: a Hadoop
     * catalog, which takes the secrets as properties it does not use.
     */
    protected String catalogOptions() {
        return String.format(
                "'type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='%s',"
                        + " 'token'='TokenSecret3'",
                dir.resolve("warehouse").toUri());
    }

    /** Runs jobs on the table and returns what they showed; none here (no cluster). */
    protected List<String> runJobs(StreamTableEnvironment sql) throws Exception {
        return List.of();
    }

    static List<String> rows(TableResult result) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(row -> rows.add(row.toString()));
        }
        return rows;
    }

    /** The full text (messages, causes, stack) of the failure of {@code statement}. */
    private static String error(Supplier<?> statement) {
        try {
            statement.get();
        } catch (RuntimeException e) {
            StringWriter text = new StringWriter();
            e.printStackTrace(new PrintWriter(text));
            return text.toString();
        }
        throw new AssertionError("the statement was expected to fail");
    }
}
