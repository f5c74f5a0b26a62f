package dev.icebergflink.table.sink;

import static dev.icebergflink.table.testing.SinkTestSupport.dataFiles;
import static dev.icebergflink.table.testing.SinkTestSupport.icebergRows;
import static dev.icebergflink.table.testing.SinkTestSupport.snapshotCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write options as SQL hints, observable in the written table (file format, codec, file size,
 * branch, distribution, writer parallelism, uid suffix) with the precedence hint, then Flink
 * configuration, then table property; and the statements that must fail with a {@code
 * ValidationException} naming the option or column, leaving the table unchanged.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IcebergTableSinkOptionsITCase extends SqlTestBase {

    @TempDir Path warehouse;

    private Catalog iceberg;
    private TableEnvironment batch;

    @BeforeEach
    void openCatalog() {
        iceberg =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
        batch = env(false);
    }

    private TableEnvironment env(boolean streaming) {
        TableEnvironment env = streaming ? streamingEnv() : batchEnv();
        exec(
                env,
                "CREATE CATALOG hadoop_catalog WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG hadoop_catalog");
        return env;
    }

    private Table table(String name) {
        Table table = iceberg.loadTable(TableIdentifier.of("default", name));
        table.refresh();
        return table;
    }

    private static void createDatagen(TableEnvironment env, int rows) {
        exec(
                env,
                "CREATE TEMPORARY TABLE default_catalog.default_database.gen (id BIGINT) WITH"
                        + " ('connector'='datagen', 'fields.id.kind'='sequence',"
                        + " 'fields.id.start'='1', 'fields.id.end'='%d', 'number-of-rows'='%d')",
                rows,
                rows);
    }

    /** The formats of the data files that the last statement added. */
    private Set<FileFormat> newFormats(Table table, Set<String> seen) {
        Set<FileFormat> formats = new HashSet<>();
        for (DataFile file : dataFiles(table, null)) {
            if (seen.add(file.location())) {
                formats.add(file.format());
            }
        }
        return formats;
    }

    @Test
    void writeFormatFollowsHintThenFlinkConfigurationThenTableProperty() {
        exec(
                batch,
                "CREATE TABLE sample (id BIGINT, data STRING) WITH"
                        + " ('write.format.default'='avro')");
        Set<String> seen = new HashSet<>();
        exec(batch, "INSERT INTO sample VALUES (1, 'a')");
        assertThat(newFormats(table("sample"), seen)).containsExactly(FileFormat.AVRO);

        batch.getConfig().set("write-format", "orc");
        exec(batch, "INSERT INTO sample VALUES (2, 'b')");
        assertThat(newFormats(table("sample"), seen)).containsExactly(FileFormat.ORC);

        exec(batch, "INSERT INTO sample /*+ OPTIONS('write-format'='parquet') */ VALUES (3, 'c')");
        assertThat(newFormats(table("sample"), seen)).containsExactly(FileFormat.PARQUET);

        assertThat(rows(batch, "SELECT * FROM sample"))
                .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
    }

    @Test
    void compressionCodecAndTargetFileSizeHints() throws IOException {
        exec(batch, "CREATE TABLE sample (id BIGINT)");
        createDatagen(batch, 3500);
        exec(
                batch,
                "INSERT INTO sample /*+ OPTIONS('compression-codec'='gzip',"
                        + " 'target-file-size-bytes'='1', 'write-parallelism'='1') */"
                        + " SELECT id FROM default_catalog.default_database.gen");

        List<DataFile> files = dataFiles(table("sample"), null);
        assertThat(files).as("a tiny target size rolls files").hasSizeGreaterThan(2);
        assertThat(files.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(3500);
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(files.get(0).location()),
                                new Configuration()))) {
            assertThat(reader.getFooter().getBlocks().get(0).getColumns().get(0).getCodec())
                    .isEqualTo(CompressionCodecName.GZIP);
        }
        assertThat(rows(batch, "SELECT COUNT(*), SUM(id) FROM sample"))
                .containsExactly(Row.of(3500L, 3500L * 3501 / 2));
    }

    @Test
    void branchHintCommitsToTheBranchOnly() {
        exec(batch, "CREATE TABLE sample (id BIGINT, data STRING)");
        exec(batch, "INSERT INTO sample VALUES (1, 'main')");
        long mainSnapshot = table("sample").currentSnapshot().snapshotId();

        exec(batch, "INSERT INTO sample /*+ OPTIONS('branch'='audit') */ VALUES (2, 'audit')");

        Table table = table("sample");
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainSnapshot);
        SnapshotRef audit = table.refs().get("audit");
        assertThat(audit).isNotNull();
        assertThat(table.snapshot(audit.snapshotId()).parentId()).isEqualTo(mainSnapshot);
        assertThat(icebergRows(table, "audit"))
                .containsExactlyInAnyOrder(Row.of(1L, "main"), Row.of(2L, "audit"));
        assertThat(rows(batch, "SELECT * FROM sample /*+ OPTIONS('branch'='audit') */"))
                .containsExactlyInAnyOrder(Row.of(1L, "main"), Row.of(2L, "audit"));
        assertThat(rows(batch, "SELECT * FROM sample")).containsExactly(Row.of(1L, "main"));
    }

    @Test
    void writerParallelismFromHints() {
        exec(batch, "CREATE TABLE sample (id BIGINT)");
        createDatagen(batch, 100);
        String insert = "INSERT INTO sample %s SELECT id FROM default_catalog.default_database.gen";
        assertThat(writerParallelism(String.format(insert, ""))).isEqualTo(2);
        assertThat(
                        writerParallelism(
                                String.format(insert, "/*+ OPTIONS('write-parallelism'='1') */")))
                .isEqualTo(1);
        assertThat(
                        writerParallelism(
                                String.format(insert, "/*+ OPTIONS('sink.parallelism'='3') */")))
                .isEqualTo(3);

        exec(batch, String.format(insert, "/*+ OPTIONS('write-parallelism'='1') */"));
        assertThat(dataFiles(table("sample"), null)).hasSize(1);
        assertThat(rows(batch, "SELECT COUNT(*) FROM sample")).containsExactly(Row.of(100L));
    }

    private int writerParallelism(String statement) {
        String plan = batch.explainSql(statement, ExplainDetail.JSON_EXECUTION_PLAN);
        Matcher matcher =
                Pattern.compile(
                                "\"type\"\\s*:\\s*\"[^\"]*Writer[^\"]*\",[\\s\\S]*?\"parallelism\"\\s*:\\s*(\\d+)")
                        .matcher(plan);
        assertThat(matcher.find()).as(plan).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    @Test
    void hashDistributionWritesOneFilePerPartitionAndUidSuffixIsAccepted() {
        exec(batch, "CREATE TABLE parts (id BIGINT, p BIGINT) PARTITIONED BY (p)");
        createDatagen(batch, 400);
        exec(
                batch,
                "INSERT INTO parts /*+ OPTIONS('distribution-mode'='hash',"
                        + " 'uid-suffix'='parts-writer') */ SELECT id, id %% 4 FROM"
                        + " default_catalog.default_database.gen");

        Map<Object, Long> filesPerPartition =
                dataFiles(table("parts"), null).stream()
                        .collect(
                                Collectors.groupingBy(
                                        file -> file.partition().get(0, Long.class),
                                        Collectors.counting()));
        assertThat(filesPerPartition).containsOnlyKeys(0L, 1L, 2L, 3L);
        assertThat(filesPerPartition.values()).containsOnly(1L);
        assertThat(rows(batch, "SELECT p, COUNT(*) FROM parts GROUP BY p"))
                .containsExactlyInAnyOrder(
                        Row.of(0L, 100L), Row.of(1L, 100L), Row.of(2L, 100L), Row.of(3L, 100L));
    }

    @Test
    void legacySinkSwitchIsAccepted() {
        exec(batch, "CREATE TABLE sample (id BIGINT, data STRING)");
        sqlClient(batch, "SET table.exec.iceberg.use-v2-sink = false;");
        exec(batch, "INSERT INTO sample VALUES (1, 'a')");
        sqlClient(batch, "SET table.exec.iceberg.use-v2-sink = true;");
        exec(batch, "INSERT INTO sample VALUES (2, 'b')");
        assertThat(icebergRows(table("sample")))
                .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"));
    }

    /** Asserts that the statement fails naming every fragment, and that the table is unchanged. */
    private void assertRejected(String tableName, Executable statement, String... fragments) {
        Table before = table(tableName);
        int snapshots = snapshotCount(before);
        List<Row> rows = icebergRows(before);
        assertThatThrownBy(statement::execute)
                .satisfies(
                        e -> {
                            assertThat(messages(e)).contains("ValidationException");
                            assertThat(messages(e)).contains(fragments);
                        });
        Table after = table(tableName);
        assertThat(snapshotCount(after)).isEqualTo(snapshots);
        assertThat(icebergRows(after)).containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void invalidWriteOptionsAreNamed() {
        exec(batch, "CREATE TABLE sample (id BIGINT, data STRING)");
        exec(batch, "INSERT INTO sample VALUES (1, 'a')");
        assertRejected(
                "sample",
                () ->
                        exec(
                                batch,
                                "INSERT INTO sample /*+ OPTIONS('write-formatt'='orc') */ VALUES"
                                        + " (2, 'b')"),
                "write-formatt",
                "write-format");
        assertRejected(
                "sample",
                () ->
                        exec(
                                batch,
                                "INSERT INTO sample /*+ OPTIONS('write-format'='csv') */ VALUES"
                                        + " (2, 'b')"),
                "write-format",
                "csv",
                "parquet, orc, avro");
        assertRejected(
                "sample",
                () ->
                        exec(
                                batch,
                                "INSERT INTO sample /*+ OPTIONS('write-parallelism'='2',"
                                        + " 'sink.parallelism'='3') */ VALUES (2, 'b')"),
                "write-parallelism",
                "sink.parallelism");
        assertRejected(
                "sample",
                () ->
                        exec(
                                batch,
                                "INSERT INTO `sample$snapshots` SELECT * FROM `sample$snapshots`"),
                "sample$snapshots",
                "read-only");
    }

    @Test
    void overwriteInStreamingModeIsRejected() {
        TableEnvironment streaming = env(true);
        exec(batch, "CREATE TABLE sample (id BIGINT, data STRING)");
        exec(batch, "INSERT INTO sample VALUES (1, 'a')");
        assertRejected(
                "sample",
                () -> exec(streaming, "INSERT OVERWRITE sample VALUES (2, 'b')"),
                "INSERT OVERWRITE",
                "batch mode only");
        assertRejected(
                "sample",
                () ->
                        exec(
                                streaming,
                                "INSERT INTO sample /*+ OPTIONS('overwrite-enabled'='true') */"
                                        + " VALUES (2, 'b')"),
                "overwrite-enabled",
                "batch mode only");
    }

    @Test
    void upsertWithoutWhatItNeedsIsRejected() {
        exec(batch, "CREATE TABLE nokey (id INT, data STRING) WITH ('format-version'='2')");
        exec(batch, "INSERT INTO nokey VALUES (1, 'a')");
        assertRejected(
                "nokey",
                () ->
                        exec(
                                batch,
                                "INSERT INTO nokey /*+ OPTIONS('upsert-enabled'='true') */ VALUES"
                                        + " (1, 'b')"),
                "upsert-enabled",
                "no PRIMARY KEY");

        exec(
                batch,
                "CREATE TABLE v1 (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('format-version'='1')");
        exec(batch, "INSERT INTO v1 VALUES (1, 'a')");
        assertRejected(
                "v1",
                () ->
                        exec(
                                batch,
                                "INSERT INTO v1 /*+ OPTIONS('upsert-enabled'='true') */ VALUES"
                                        + " (1, 'b')"),
                "upsert-enabled",
                "format v1",
                "'format-version'='2'");

        exec(
                batch,
                "CREATE TABLE parted (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " PARTITIONED BY (data) WITH ('format-version'='2')");
        exec(batch, "INSERT INTO parted VALUES (1, 'a')");
        assertRejected(
                "parted",
                () ->
                        exec(
                                batch,
                                "INSERT INTO parted /*+ OPTIONS('upsert-enabled'='true') */ VALUES"
                                        + " (1, 'b')"),
                "partitioned by column(s) [data]",
                "PRIMARY KEY [id]");

        exec(
                batch,
                "CREATE TABLE upserts (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('format-version'='2', 'write.upsert.enabled'='true')");
        exec(batch, "INSERT INTO upserts VALUES (1, 'a')");
        assertRejected(
                "upserts",
                () -> exec(batch, "INSERT OVERWRITE upserts VALUES (1, 'b')"),
                "INSERT OVERWRITE",
                "cannot be combined with upsert",
                "table property 'write.upsert.enabled'");
    }

    /**
     * {@code write.operation} (the name Alibaba Cloud's managed connector uses): bulk_insert
     * appends every row of a key, upsert keeps the last, insert applies an updating query's
     * retractions, and bulk_insert refuses an updating query.
     */
    @Test
    void writeOperationChoosesBulkInsertUpsertOrInsert() {
        TableEnvironment streaming = env(true);
        exec(
                batch,
                "CREATE TABLE ops (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('format-version'='2')");
        exec(
                streaming,
                "INSERT INTO ops /*+ OPTIONS('write.operation'='bulk_insert') */"
                        + " VALUES (1, 'a'), (1, 'b')");
        assertThat(icebergRows(table("ops")))
                .containsExactlyInAnyOrder(Row.of(1, "a"), Row.of(1, "b"));

        exec(
                streaming,
                "INSERT INTO ops /*+ OPTIONS('write.operation'='upsert') */"
                        + " VALUES (1, 'c'), (2, 'd'), (2, 'e')");
        assertThat(icebergRows(table("ops")))
                .containsExactlyInAnyOrder(Row.of(1, "c"), Row.of(2, "e"));

        String updating =
                "SELECT id, MAX(data) FROM (VALUES (3, 'f'), (3, 'g')) AS v(id, data) GROUP BY id";
        exec(streaming, "INSERT INTO ops /*+ OPTIONS('write.operation'='insert') */ " + updating);
        assertThat(icebergRows(table("ops")))
                .containsExactlyInAnyOrder(Row.of(1, "c"), Row.of(2, "e"), Row.of(3, "g"));

        int snapshots = snapshotCount(table("ops"));
        assertThatThrownBy(
                        () ->
                                exec(
                                        streaming,
                                        "INSERT INTO ops /*+ OPTIONS('write.operation'="
                                                + "'bulk_insert') */ "
                                                + updating))
                .satisfies(e -> assertThat(messages(e)).contains("update changes"));
        assertThat(snapshotCount(table("ops"))).isEqualTo(snapshots);
    }

    @Test
    void truncateTableRemovesEveryRowInOneSnapshot() {
        exec(
                batch,
                "CREATE TABLE trunc (id INT, data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('format-version'='2')");
        exec(batch, "TRUNCATE TABLE trunc");
        assertThat(table("trunc").currentSnapshot()).as("an empty table stays as it is").isNull();

        exec(batch, "INSERT INTO trunc VALUES (1, 'a'), (2, 'b')");
        exec(batch, "INSERT INTO trunc /*+ OPTIONS('upsert-enabled'='true') */ VALUES (1, 'c')");
        int snapshots = snapshotCount(table("trunc"));
        exec(batch, "TRUNCATE TABLE trunc");
        Table truncated = table("trunc");
        assertThat(snapshotCount(truncated)).isEqualTo(snapshots + 1);
        assertThat(truncated.currentSnapshot().operation()).isEqualTo("delete");
        assertThat(icebergRows(truncated)).isEmpty();
        assertThat(rows(batch, "SELECT * FROM trunc")).isEmpty();

        exec(batch, "INSERT INTO trunc VALUES (3, 'd')");
        assertThat(rows(batch, "SELECT * FROM trunc")).containsExactly(Row.of(3, "d"));
    }
}
