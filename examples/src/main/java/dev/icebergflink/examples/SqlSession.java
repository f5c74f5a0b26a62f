package dev.icebergflink.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * A SQL session that behaves like the SQL client's: statements run one after the other, {@code SET
 * 'key' = 'value'} changes the session configuration, and {@code SET 'execution.runtime-mode' =
 * 'batch'} (or {@code 'streaming'}) switches the mode of the statements that follow.
 *
 * <p>It exists because a Java {@link TableEnvironment} fixes its runtime mode when it is created:
 * planning a statement after the mode was changed fails with "Mismatch between configured runtime
 * mode and actual runtime mode". On a runtime-mode change this session therefore creates a fresh
 * TableEnvironment in the new mode with every {@code SET} so far, replays in their order the
 * statements that only live in the session ({@code USE}, catalog registrations, temporary objects,
 * modules, jars) and selects the current catalog and database again. What statements wrote into
 * catalogs (databases, tables) is not replayed: it lives in the catalog, as it does in an Iceberg
 * catalog (a catalog that keeps its content in memory, like {@code generic_in_memory}, comes back
 * empty).
 */
public final class SqlSession {

    private static final Pattern SET =
            Pattern.compile(
                    "SET\\s+'?([\\w.\\-]+)'?\\s*=\\s*'?([^';]*?)'?\\s*;?",
                    Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /**
     * Statements whose effect lives only in the TableEnvironment, so a new one needs them again.
     */
    private static final Pattern SESSION_ONLY =
            Pattern.compile(
                    "(CREATE|DROP|ALTER)\\s+(CATALOG|TEMPORARY)\\b.*|USE\\s.*"
                            + "|(LOAD|UNLOAD)\\s+MODULE\\b.*|ADD\\s+JAR\\b.*",
                    Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private final Configuration configuration;
    private final List<String> sessionStatements = new ArrayList<>();
    private TableEnvironment tableEnv;

    /**
     * A session in the runtime mode of {@code initial} (streaming when it does not say), with its
     * options as the first session configuration.
     */
    public SqlSession(Configuration initial) {
        this.configuration = new Configuration(initial);
        this.tableEnv = create(configuration);
    }

    /** The TableEnvironment the next statement runs in (a new one after a runtime-mode change). */
    public TableEnvironment tableEnvironment() {
        return tableEnv;
    }

    /** The runtime mode the next statement runs in. */
    public RuntimeExecutionMode runtimeMode() {
        return configuration.get(ExecutionOptions.RUNTIME_MODE);
    }

    /**
     * Runs one statement (without the trailing {@code ;}).
     *
     * @return the statement's result, or empty for a {@code SET} that the session applied
     * @throws IllegalArgumentException when a {@code SET 'execution.runtime-mode'} names no mode
     */
    public Optional<TableResult> execute(String statement) {
        String text = statement.trim();
        Matcher set = SET.matcher(text);
        if (set.matches()) {
            set(set.group(1), set.group(2));
            return Optional.empty();
        }
        TableResult result = tableEnv.executeSql(text);
        if (SESSION_ONLY.matcher(text).matches()) {
            sessionStatements.add(text);
        }
        return Optional.of(result);
    }

    private void set(String key, String value) {
        if (!ExecutionOptions.RUNTIME_MODE.key().equals(key)) {
            configuration.setString(key, value);
            tableEnv.getConfig().set(key, value);
            return;
        }
        RuntimeExecutionMode mode = runtimeMode(value);
        if (mode != runtimeMode()) {
            configuration.set(ExecutionOptions.RUNTIME_MODE, mode);
            switchEnvironment();
        }
    }

    /** A new TableEnvironment in the session's mode, with the session's state replayed. */
    private void switchEnvironment() {
        String catalog = tableEnv.getCurrentCatalog();
        String database = tableEnv.getCurrentDatabase();
        TableEnvironment next = create(configuration);
        for (String statement : sessionStatements) {
            try {
                next.executeSql(statement);
            } catch (RuntimeException e) {
                throw new IllegalStateException(
                        String.format(
                                "SqlSession: switching to %s mode needs a new TableEnvironment,"
                                        + " but replaying the session statement '%s' in it"
                                        + " failed: %s",
                                runtimeMode(), statement, e.getMessage()),
                        e);
            }
        }
        next.useCatalog(catalog);
        next.useDatabase(database);
        tableEnv = next;
    }

    private static TableEnvironment create(Configuration configuration) {
        return TableEnvironment.create(
                EnvironmentSettings.newInstance().withConfiguration(configuration).build());
    }

    private static RuntimeExecutionMode runtimeMode(String value) {
        String mode = value.trim().toUpperCase(Locale.ROOT);
        if (mode.equals(RuntimeExecutionMode.STREAMING.name())
                || mode.equals(RuntimeExecutionMode.BATCH.name())) {
            return RuntimeExecutionMode.valueOf(mode);
        }
        throw new IllegalArgumentException(
                String.format(
                        "SET '%s' must be 'streaming' or 'batch', but was '%s'",
                        ExecutionOptions.RUNTIME_MODE.key(), value));
    }
}
