package dev.icebergflink.table.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A shared MiniCluster (one TaskManager, four slots) and small helpers for SQL ITCases: batch and
 * streaming table environments, running statements, and collecting rows.
 */
public abstract class SqlTestBase {

    @RegisterExtension
    protected static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    /** A new batch table environment. */
    protected static TableEnvironment batchEnv() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        return env;
    }

    /** A new streaming table environment. */
    protected static TableEnvironment streamingEnv() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "2");
        return env;
    }

    /** Runs a statement and waits for it. */
    protected static TableResult exec(TableEnvironment env, String statement, Object... args) {
        TableResult result = env.executeSql(String.format(statement, args));
        try {
            result.await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return result;
    }

    private static final java.util.regex.Pattern SQL_CLIENT_SET =
            java.util.regex.Pattern.compile("SET\\s+([\\w.\\-]+)\\s*=\\s*([^;\\s]+)\\s*;?");

    /**
     * Runs a statement written for the SQL client. Its {@code SET key = value} is a SQL client
     * command that the table environment does not parse, so it sets the session configuration as
     * the SQL client does; other statements run unchanged.
     */
    protected static void sqlClient(TableEnvironment env, String statement) {
        java.util.regex.Matcher set = SQL_CLIENT_SET.matcher(statement.trim());
        if (set.matches()) {
            env.getConfig().set(set.group(1), set.group(2));
        } else {
            exec(env, statement.trim().replaceAll(";$", ""));
        }
    }

    /** Every row of a bounded query. */
    protected static List<Row> rows(TableEnvironment env, String query, Object... args) {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> iterator =
                env.executeSql(String.format(query, args)).collect()) {
            iterator.forEachRemaining(rows::add);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return rows;
    }

    /** The next {@code count} rows of an (unbounded) query result. */
    protected static List<Row> take(CloseableIterator<Row> iterator, int count) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(iterator.next());
        }
        return rows;
    }

    /** The messages of an exception and all its causes, joined, for assertions. */
    protected static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            text.append(t.getClass().getSimpleName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return text.toString();
    }

    /** The row type of {@link #changelogView}: {@code (id INT, data STRING)}. */
    private static final TypeInformation<Row> ID_DATA =
            Types.ROW_NAMED(new String[] {"id", "data"}, Types.INT, Types.STRING);

    /**
     * Registers {@code changes} (rows of {@code (id INT NOT NULL, data STRING)} with their kinds)
     * as the changelog view {@code default_catalog.default_database.<name>}, keyed by id or not.
     */
    protected static void changelogView(
            StreamTableEnvironment env,
            StreamExecutionEnvironment streamEnv,
            String name,
            List<Row> changes,
            boolean keyedById) {
        Schema.Builder schema =
                Schema.newBuilder()
                        .column("id", DataTypes.INT().notNull())
                        .column("data", DataTypes.STRING());
        if (keyedById) {
            schema.primaryKey("id");
        }
        env.createTemporaryView(
                "default_catalog.default_database." + name,
                env.fromChangelogStream(
                        streamEnv.fromData(changes).returns(ID_DATA),
                        schema.build(),
                        ChangelogMode.all()));
    }
}
