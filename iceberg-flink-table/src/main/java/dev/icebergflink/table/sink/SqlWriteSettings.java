package dev.icebergflink.table.sink;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionSource;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.sink.FlinkWriteConf;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.sink.WriteModeRules;
import dev.icebergflink.sink.WriteRuleViolation;
import dev.icebergflink.table.options.SqlOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.types.Types;

/**
 * The write settings of one SQL {@code INSERT} into an Iceberg table, resolved and checked while
 * the statement is planned.
 *
 * <p>It exists so that SQL users get a {@link ValidationException} naming the option or column at
 * fault before any job runs, and so that the table sink knows the write mode (upsert or not) when
 * the planner asks for its changelog mode. Write options come from hints and connector {@code WITH}
 * options ({@link FlinkWriteOptions}), then the Flink configuration, then table properties (the
 * order of Iceberg's own connector). {@code sink.parallelism} is accepted as another name of {@code
 * write-parallelism}.
 *
 * <p>Upsert in SQL keys rows by the table's {@code PRIMARY KEY}: it needs one, a format v2+ table,
 * and every partition source column among the key columns. These are the sink's own rules ({@link
 * WriteModeRules}), worded in SQL terms by {@link SqlWriteRules}. The resolved options and the
 * loaded table are handed on to the sink ({@link IcebergTableSink}), which does not resolve them
 * again.
 */
@Internal
public final class SqlWriteSettings {

    private final String tableName;
    private final Table table;
    private final Map<String, String> writeOptions;
    private final FlinkWriteConf conf;
    private final List<String> primaryKey;
    private final boolean bulkInsert;
    private final String upsertEnabledBy;

    private SqlWriteSettings(
            String tableName,
            Table table,
            Map<String, String> writeOptions,
            FlinkWriteConf conf,
            List<String> primaryKey,
            boolean bulkInsert,
            String upsertEnabledBy) {
        this.tableName = tableName;
        this.table = table;
        this.writeOptions = writeOptions;
        this.conf = conf;
        this.primaryKey = primaryKey;
        this.bulkInsert = bulkInsert;
        this.upsertEnabledBy = upsertEnabledBy;
    }

    /**
     * Resolves and checks the write settings of an {@code INSERT}.
     *
     * @param tableName the Flink table, for messages
     * @param engineOptions the per-query options (hints, connector {@code WITH} options); read
     *     options among them are ignored
     * @param flinkConfig the session configuration
     * @param table the Iceberg table
     * @param primaryKey the declared primary key columns (empty for none)
     * @throws ValidationException naming the option, column or value at fault
     */
    public static SqlWriteSettings resolve(
            String tableName,
            Map<String, String> engineOptions,
            ReadableConfig flinkConfig,
            Table table,
            List<String> primaryKey) {
        Map<String, String> writeOptions = writeOptions(tableName, engineOptions);
        // write.operation stands for upsert-enabled at its own level: as an option (hint, WITH) it
        // is an upsert-enabled option, as a table property a write.upsert.enabled property, so the
        // usual precedence (option, Flink configuration, table property) decides between them.
        WriteOperation byOption = WriteOperation.of(tableName, "option", engineOptions);
        if (byOption != null) {
            byOption.applyTo(
                    writeOptions, FlinkWriteOptions.UPSERT_ENABLED.key(), tableName, "option");
        }
        String upsertProperty = FlinkWriteOptions.UPSERT_ENABLED.tableProperty().orElseThrow();
        Map<String, String> properties = table.properties();
        WriteOperation byProperty = WriteOperation.of(tableName, "table property", properties);
        if (byProperty != null) {
            properties = new LinkedHashMap<>(properties);
            byProperty.applyTo(properties, upsertProperty, tableName, "table property");
        }
        FlinkWriteConf conf;
        try {
            conf = FlinkWriteConf.resolve(writeOptions, flinkConfig, properties);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format("Cannot write to table %s: %s", tableName, e.getMessage()), e);
        }
        WriteOperation operation = byOption != null ? byOption : byProperty;
        String upsertEnabledBy = conf.upsertEnabledBy();
        if (byOption == WriteOperation.UPSERT) {
            upsertEnabledBy = OptionSource.OPTION.describe(WriteOperation.KEY) + "='upsert'";
        } else if (byOption == null
                && byProperty == WriteOperation.UPSERT
                && upsertEnabledBy.equals(OptionSource.TABLE_PROPERTY.describe(upsertProperty))) {
            upsertEnabledBy =
                    OptionSource.TABLE_PROPERTY.describe(WriteOperation.KEY) + "='upsert'";
        }
        SqlWriteSettings settings =
                new SqlWriteSettings(
                        tableName,
                        table,
                        writeOptions,
                        conf,
                        List.copyOf(primaryKey),
                        operation == WriteOperation.BULK_INSERT && !conf.upsert(),
                        upsertEnabledBy);
        if (conf.upsert()) {
            settings.checkUpsert();
        }
        return settings;
    }

    private static Map<String, String> writeOptions(
            String tableName, Map<String, String> engineOptions) {
        List<ConnectorOption<?>> writeOptions = new ArrayList<>(FlinkWriteOptions.all());
        writeOptions.addAll(FlinkWriteOptions.maintenanceSettings());
        Set<String> writeKeys = OptionValidation.validKeys(writeOptions);
        Map<String, String> options = new LinkedHashMap<>();
        engineOptions.forEach(
                (key, value) -> {
                    if (writeKeys.contains(key)) {
                        options.put(key, value);
                    }
                });
        String sinkParallelism = engineOptions.get(SqlOptions.SINK_PARALLELISM.key());
        if (sinkParallelism != null) {
            String key = FlinkWriteOptions.WRITE_PARALLELISM.key();
            String writeParallelism = options.get(key);
            if (writeParallelism != null
                    && !writeParallelism.trim().equals(sinkParallelism.trim())) {
                throw new ValidationException(
                        String.format(
                                "Table %s: options '%s'='%s' and '%s'='%s' disagree; both set the"
                                        + " writer parallelism, set only one of them",
                                tableName,
                                key,
                                writeParallelism,
                                SqlOptions.SINK_PARALLELISM.key(),
                                sinkParallelism));
            }
            options.put(key, sinkParallelism);
        }
        return options;
    }

    /** The sink's upsert rules, with the primary key as the equality fields. */
    private void checkUpsert() {
        List<Integer> keyIds = new ArrayList<>();
        for (String column : primaryKey) {
            Types.NestedField field = table.schema().findField(column);
            if (field != null) {
                keyIds.add(field.fieldId());
            }
        }
        try {
            WriteModeRules.checkUpsert(
                    TableUtil.formatVersion(table), table.schema(), table.spec(), keyIds);
        } catch (WriteRuleViolation e) {
            throw SqlWriteRules.toValidation(tableName, e, upsertEnabledBy(), "upsert");
        }
    }

    /** The table, for messages. */
    public String tableName() {
        return tableName;
    }

    /** The explicit write options (hints, {@code WITH}), for the sink builder. */
    public Map<String, String> writeOptions() {
        return writeOptions;
    }

    /** The Iceberg table, as loaded while the statement was planned. */
    public Table table() {
        return table;
    }

    /** The resolved write options. */
    public FlinkWriteConf writeConf() {
        return conf;
    }

    /** Whether upsert mode is on (by option, Flink configuration or table property). */
    public boolean upsert() {
        return conf.upsert();
    }

    /** Where upsert mode was set, e.g. {@code table property 'write.upsert.enabled'}. */
    public String upsertEnabledBy() {
        return upsertEnabledBy;
    }

    /**
     * Whether {@code 'write.operation'='bulk_insert'} asks for the plain append path: the query's
     * rows are written as they arrive, with no de-duplication by key, and the query must be
     * insert-only.
     */
    public boolean bulkInsert() {
        return bulkInsert;
    }

    /** Whether the {@code overwrite-enabled} option asks for overwrite. */
    public boolean overwriteOption() {
        return conf.overwrite();
    }

    /** The declared primary key columns (empty for none): the equality fields. */
    public List<String> primaryKey() {
        return primaryKey;
    }

    /** The Iceberg format version of the table. */
    public int formatVersion() {
        return TableUtil.formatVersion(table);
    }

    /** The writer parallelism ({@code write-parallelism} or {@code sink.parallelism}), or null. */
    public Integer writeParallelism() {
        return conf.writeParallelism();
    }

    /** Whether the sink's operators get uids from {@code uid-suffix}. */
    public boolean hasUidSuffix() {
        return !conf.uidSuffix().isEmpty();
    }
}
