package dev.icebergflink.table.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.table.catalog.FlinkCatalog;
import dev.icebergflink.table.testing.SinkTestSupport;
import dev.icebergflink.table.testing.SqlTestBase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.Row;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One short SQL + DataStream scenario run against a real catalog x warehouse combination (issue
 * #6): each subclass registers the servers and says which catalog options and which {@link
 * WarehouseStorage} it uses; the scenario checks that rows round-trip and that the files really are
 * in (and, after a purging DROP TABLE, gone from) the storage itself.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
abstract class CatalogWarehouseITCaseBase extends SqlTestBase {

    private static final String CATALOG = "storage_cat";
    private static final RowType ROW_TYPE =
            RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new BigIntType(),
                        new VarCharType(VarCharType.MAX_LENGTH),
                        new VarCharType(VarCharType.MAX_LENGTH)
                    },
                    new String[] {"id", "data", "part"});

    /** The catalog's own options (type, uri, jdbc.*, ...), without the storage's. */
    protected abstract Map<String, String> catalogOptions();

    /** The warehouse the catalog keeps its tables in. */
    protected abstract WarehouseStorage storage();

    @Test
    void sqlAndDataStreamRoundTripWithFilesInTheStore() throws Exception {
        WarehouseStorage storage = storage();
        TableEnvironment env = batchEnv();
        env.getConfig().set("table.dml-sync", "true");

        Map<String, String> options = new LinkedHashMap<>();
        options.put("type", "iceberg");
        options.putAll(catalogOptions());
        options.putAll(storage.catalogOptions());
        options.put("hadoop.dfs.replication", "1");
        exec(env, "CREATE CATALOG %s WITH (%s)", CATALOG, withClause(options));
        FlinkCatalog catalog = (FlinkCatalog) env.getCatalog(CATALOG).orElseThrow();
        assertThat(catalog.catalogLoader().hadoopConf().get("dfs.replication"))
                .as("'hadoop.dfs.replication' reaches the catalog's Hadoop configuration")
                .isEqualTo("1");

        exec(env, "CREATE DATABASE %s.db", CATALOG);
        exec(
                env,
                "CREATE TABLE %s.db.t (id BIGINT, data STRING, part STRING) PARTITIONED BY (part)",
                CATALOG);
        exec(
                env,
                "INSERT INTO %s.db.t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'x')",
                CATALOG);

        ObjectPath path = new ObjectPath("db", "t");
        appendWithDataStream(
                catalog.tableLoader(path), List.of(row(4, "d", "y"), row(5, "e", "z")));

        assertThat(rows(env, "SELECT id, data, part FROM %s.db.t", CATALOG))
                .containsExactlyInAnyOrder(
                        Row.of(1L, "a", "x"),
                        Row.of(2L, "b", "y"),
                        Row.of(3L, "c", "x"),
                        Row.of(4L, "d", "y"),
                        Row.of(5L, "e", "z"));

        TableIdentifier id = catalog.toIdentifier(path);
        Table table = catalog.icebergCatalog().loadTable(id);
        String location = table.location();
        assertThat(location).startsWith(storage.scheme() + "://");
        assertThat(SinkTestSupport.icebergRows(table)).hasSize(5);
        List<String> dataFiles =
                SinkTestSupport.dataFiles(table, null).stream()
                        .map(DataFile::location)
                        .collect(Collectors.toList());
        assertThat(dataFiles).hasSizeGreaterThanOrEqualTo(3);
        assertThat(dataFiles)
                .allSatisfy(file -> assertThat(file).startsWith(location + "/data/part="));
        String metadata =
                ((org.apache.iceberg.HasTableOperations) table)
                        .operations()
                        .current()
                        .metadataFileLocation();

        List<String> stored = storage.files(location);
        assertThat(stored)
                .as("files in the store under %s", location)
                .containsAll(dataFiles)
                .contains(metadata)
                .anySatisfy(file -> assertThat(file).endsWith(".avro")); // manifests

        exec(env, "DROP TABLE %s.db.t", CATALOG);
        assertThat(catalog.icebergCatalog().tableExists(id)).isFalse();
        assertThat(storage.files(location))
                .as("files left under %s after a purging DROP TABLE", location)
                .isEmpty();
        exec(env, "DROP DATABASE %s.db", CATALOG);
    }

    private static void appendWithDataStream(TableLoader loader, List<RowData> rows)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        env.fromData(rows, InternalTypeInfo.of(ROW_TYPE))
                .setParallelism(1)
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        env.execute("append through IcebergSink");
    }

    private static RowData row(long id, String data, String part) {
        return GenericRowData.of(id, StringData.fromString(data), StringData.fromString(part));
    }

    private static String withClause(Map<String, String> options) {
        List<String> pairs = new ArrayList<>();
        options.forEach(
                (key, value) -> pairs.add("'" + key + "'='" + value.replace("'", "''") + "'"));
        return String.join(", ", pairs);
    }
}
