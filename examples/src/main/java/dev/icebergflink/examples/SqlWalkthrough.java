package dev.icebergflink.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The SQL walkthrough of the user documentation: the script {@code sql/walkthrough.sql} (CREATE
 * CATALOG, CREATE DATABASE/TABLE, INSERT INTO, INSERT OVERWRITE, a batch SELECT, upsert, metadata
 * tables and a streaming SELECT with an OPTIONS hint) executed statement by statement through a
 * {@link TableEnvironment}, each result printed as a table, as the SQL client would.
 *
 * <p>Statements end with {@code ;} at the end of a line; lines starting with {@code --} are
 * comments. {@code SET 'key' = 'value'} sets the session configuration, as in the SQL client. A
 * comment {@code -- @take N} before a query reads only its first N rows and then cancels it (for
 * streaming queries, which never end). {@code ${warehouse}} in the script is replaced by the
 * warehouse.
 *
 * <p>Arguments: {@code --warehouse <uri>} (default {@code file:./warehouse}), {@code --script
 * <file>} (default: the bundled walkthrough).
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main};
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=SqlWalkthrough -DskipTests package}
 *       (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.SqlWalkthrough examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse} (or give the script to the SQL client: {@code sql-client.sh
 *       -f walkthrough.sql} after replacing {@code ${warehouse}}).
 * </ul>
 */
public final class SqlWalkthrough {

    /** The bundled script. */
    public static final String SCRIPT = "sql/walkthrough.sql";

    private static final Pattern SET =
            Pattern.compile(
                    "SET\\s+'?([\\w.\\-]+)'?\\s*=\\s*'?([^';]*?)'?\\s*;?",
                    Pattern.CASE_INSENSITIVE);
    private static final Pattern TAKE = Pattern.compile("--\\s*@take\\s+(\\d+)\\s*");

    /** One statement the walkthrough ran and, for queries, the rows it printed. */
    public record Executed(String statement, List<String> columns, List<Row> rows) {}

    private SqlWalkthrough() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /** Runs the script and returns every statement with its rows. */
    static List<Executed> run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments = ExampleArguments.parse("SqlWalkthrough", args, "script");
        String warehouse =
                arguments.catalogOptions().getOrDefault("warehouse", "file:///tmp/warehouse");
        String script =
                arguments.get("script").isPresent()
                        ? Files.readString(Paths.get(arguments.get("script").get()))
                        : resource(SCRIPT);
        TableEnvironment tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        arguments
                .parallelism()
                .ifPresent(p -> tableEnv.getConfig().set("parallelism.default", String.valueOf(p)));

        List<Executed> executed = new ArrayList<>();
        for (Statement statement : split(script.replace("${warehouse}", warehouse))) {
            out.println();
            out.println("Flink SQL> " + statement.text() + ";");
            executed.add(execute(tableEnv, statement, out));
        }
        return executed;
    }

    private static Executed execute(TableEnvironment tableEnv, Statement statement, PrintStream out)
            throws Exception {
        Matcher set = SET.matcher(statement.text());
        if (set.matches()) {
            tableEnv.getConfig().set(set.group(1), set.group(2));
            out.println("[INFO] Session property has been set.");
            return new Executed(statement.text(), List.of(), List.of());
        }
        TableResult result = tableEnv.executeSql(statement.text());
        String keyword = statement.text().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        if (!List.of("SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN").contains(keyword)) {
            result.await();
            out.println(
                    result.getJobClient().isPresent()
                            ? "[INFO] Job " + result.getJobClient().get().getJobID() + " finished."
                            : "[INFO] Execute statement succeeded.");
            return new Executed(statement.text(), List.of(), List.of());
        }
        List<String> columns = result.getResolvedSchema().getColumnNames();
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> iterator = result.collect()) {
            while (rows.size() < statement.take() && iterator.hasNext()) {
                rows.add(iterator.next());
            }
        }
        TextTable table = new TextTable(columns);
        for (Row row : rows) {
            Object[] values = new Object[row.getArity()];
            for (int i = 0; i < values.length; i++) {
                values[i] = row.getField(i);
            }
            table.addRow(values);
        }
        table.print(out, true);
        return new Executed(statement.text(), columns, rows);
    }

    /** A statement of the script and how many rows of its result to read. */
    private record Statement(String text, long take) {}

    private static List<Statement> split(String script) {
        List<Statement> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        long take = Long.MAX_VALUE;
        for (String line : script.split("\\R")) {
            String trimmed = line.trim();
            Matcher directive = TAKE.matcher(trimmed);
            if (directive.matches()) {
                take = Long.parseLong(directive.group(1));
                continue;
            }
            if (trimmed.startsWith("--") || (trimmed.isEmpty() && current.length() == 0)) {
                continue;
            }
            current.append(current.length() == 0 ? "" : "\n").append(line);
            if (trimmed.endsWith(";")) {
                String text = current.toString().trim();
                statements.add(new Statement(text.substring(0, text.length() - 1).trim(), take));
                current.setLength(0);
                take = Long.MAX_VALUE;
            }
        }
        if (current.toString().trim().length() > 0) {
            throw new IllegalArgumentException(
                    "SqlWalkthrough: the script ends with a statement without ';': " + current);
        }
        return statements;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SqlWalkthrough.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("SqlWalkthrough: resource " + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
