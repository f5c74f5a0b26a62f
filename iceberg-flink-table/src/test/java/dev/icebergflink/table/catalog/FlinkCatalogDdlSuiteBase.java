package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The catalog-agnostic DDL suite: SQL as users write it, run through a batch {@link
 * TableEnvironment} against an Iceberg catalog created with {@code CREATE CATALOG}, with the
 * Iceberg metadata checked afterwards through a separate Iceberg catalog client.
 *
 * <p>A subclass supplies one real catalog (its server starts once per test class) through {@link
 * #catalogOptions()} and says what that catalog can do (for example whether it stores namespace
 * properties), as flink-connector-jdbc's catalog mixins do. Every test works in its own database,
 * dropped afterwards.
 */
abstract class FlinkCatalogDdlSuiteBase {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    protected static final String CATALOG = "ice";

    protected TableEnvironment tEnv;
    protected String db;
    private Catalog verifier;

    /** The {@code WITH} options of the catalog under test, without {@code 'type'}. */
    protected abstract Map<String, String> catalogOptions();

    /** Whether the catalog stores namespace properties and comments. */
    protected boolean supportsNamespaceProperties() {
        return true;
    }

    /** Whether the catalog stores nanosecond timestamps (Hive 2.3's schema sync does not). */
    protected boolean supportsNanosecondTimestamps() {
        return true;
    }

    /** Whether the catalog can rename tables. */
    protected boolean supportsRenameTable() {
        return true;
    }

    @BeforeEach
    void createCatalogAndDatabase() {
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        Map<String, String> options = new LinkedHashMap<>(catalogOptions());
        options.put("type", "iceberg");
        String with =
                options.entrySet().stream()
                        .map(e -> "'" + e.getKey() + "'='" + e.getValue() + "'")
                        .collect(Collectors.joining(", "));
        sql("CREATE CATALOG %s WITH (%s)", CATALOG, with);
        db = "db_" + getClass().getSimpleName().toLowerCase() + "_" + DATABASES.incrementAndGet();
        sql("CREATE DATABASE %s.%s", CATALOG, db);
        sql("USE CATALOG %s", CATALOG);
        sql("USE %s", db);
        verifier = flinkCatalog().catalogLoader().loadCatalog();
    }

    @AfterEach
    void dropDatabaseAndCatalog() throws Exception {
        try {
            sql("USE CATALOG default_catalog");
            sql("DROP DATABASE IF EXISTS %s.%s CASCADE", CATALOG, db);
            sql("DROP CATALOG %s", CATALOG);
        } finally {
            if (verifier instanceof Closeable closeable) {
                closeable.close();
            }
        }
    }

    // ------------------------------------------------------------------ databases

    @Test
    void createDatabaseWithCommentAndPropertiesThenAlterAndDrop() throws Exception {
        if (!supportsNamespaceProperties()) {
            assertThatThrownBy(
                            () ->
                                    sql(
                                            "CREATE DATABASE %s_props COMMENT 'sales data' WITH"
                                                    + " ('owner'='team-a')",
                                            db))
                    .satisfies(
                            error -> assertValidation(error, "may not store database properties"));
            assertThat(namespaces().namespaceExists(namespace(db + "_props"))).isFalse();
            return;
        }
        String other = db + "_props";
        sql(
                "CREATE DATABASE %s COMMENT 'sales data' WITH ('owner'='team-a', 'tier'='gold')",
                other);
        try {
            Map<String, String> metadata = namespaces().loadNamespaceMetadata(namespace(other));
            assertThat(metadata)
                    .containsEntry("comment", "sales data")
                    .containsEntry("owner", "team-a")
                    .containsEntry("tier", "gold");
            CatalogDatabase database = flinkCatalog().getDatabase(other);
            assertThat(database.getComment()).isEqualTo("sales data");
            assertThat(database.getProperties()).containsEntry("owner", "team-a");
            assertThat(database.getProperties()).doesNotContainKey("comment");

            sql("ALTER DATABASE %s SET ('owner'='team-b', 'region'='eu')", other);
            assertThat(namespaces().loadNamespaceMetadata(namespace(other)))
                    .containsEntry("owner", "team-b")
                    .containsEntry("region", "eu")
                    .containsEntry("tier", "gold")
                    .containsEntry("comment", "sales data");
            assertThat(rows("SHOW DATABASES")).contains(Row.of(other), Row.of(db));
        } finally {
            sql("DROP DATABASE %s", other);
        }
        assertThat(namespaces().namespaceExists(namespace(other))).isFalse();
    }

    @Test
    void dropDatabaseRestrictFailsOnTablesAndCascadeDropsThem() {
        String other = db + "_drop";
        sql("CREATE DATABASE %s", other);
        sql("CREATE TABLE %s.t (id BIGINT)", other);

        assertThatThrownBy(() -> sql("DROP DATABASE %s", other))
                .hasStackTraceContaining("is not empty");
        assertThat(verifier.tableExists(TableIdentifier.of(namespace(other), "t"))).isTrue();

        sql("DROP DATABASE %s CASCADE", other);
        assertThat(namespaces().namespaceExists(namespace(other))).isFalse();
        assertThat(verifier.tableExists(TableIdentifier.of(namespace(other), "t"))).isFalse();
    }

    @Test
    void useDatabaseAndListTables() {
        sql("CREATE TABLE a (id BIGINT)");
        sql("CREATE TABLE b (id BIGINT)");
        assertThat(rows("SHOW TABLES")).containsExactlyInAnyOrder(Row.of("a"), Row.of("b"));
        assertThat(rows("SHOW VIEWS")).isEmpty();
        assertThat(rows("SHOW CURRENT DATABASE")).containsExactly(Row.of(db));
    }

    // ------------------------------------------------------------------ CREATE TABLE

    @Test
    void createTableAsInTheUserDocumentation() {
        sql(
                "CREATE TABLE `%s`.`%s`.`sample` (id BIGINT COMMENT 'unique id', data STRING)",
                CATALOG, db);

        Table table = icebergTable("sample");
        assertThat(table.schema().asStruct())
                .isEqualTo(
                        new Schema(
                                        Types.NestedField.optional(
                                                1, "id", Types.LongType.get(), "unique id"),
                                        Types.NestedField.optional(
                                                2, "data", Types.StringType.get()))
                                .asStruct());
        assertThat(table.spec().isUnpartitioned()).isTrue();
        assertThat(table.schema().identifierFieldIds()).isEmpty();
    }

    @Test
    void createTableWithPartitionsCommentPropertiesAndPrimaryKey() {
        sql(
                "CREATE TABLE t ("
                        + " id BIGINT NOT NULL COMMENT 'unique id',"
                        + " data STRING,"
                        + " category STRING NOT NULL,"
                        + " PRIMARY KEY (id, category) NOT ENFORCED"
                        + ") COMMENT 'orders table' PARTITIONED BY (category)"
                        + " WITH ('format-version'='2', 'write.format.default'='avro',"
                        + " 'write.upsert.enabled'='true')");

        Table table = icebergTable("t");
        assertThat(table.schema().asStruct())
                .isEqualTo(
                        new Schema(
                                        Types.NestedField.required(
                                                1, "id", Types.LongType.get(), "unique id"),
                                        Types.NestedField.optional(
                                                2, "data", Types.StringType.get()),
                                        Types.NestedField.required(
                                                3, "category", Types.StringType.get()))
                                .asStruct());
        assertThat(table.schema().identifierFieldIds()).containsExactlyInAnyOrder(1, 3);
        assertThat(table.spec())
                .isEqualTo(
                        PartitionSpec.builderFor(table.schema())
                                .withSpecId(table.spec().specId())
                                .identity("category")
                                .build());
        assertThat(TableUtil.formatVersion(table)).isEqualTo(2);
        assertThat(table.properties())
                .containsEntry("write.format.default", "avro")
                .containsEntry("write.upsert.enabled", "true")
                .containsEntry("comment", "orders table")
                .doesNotContainKeys("format-version", "connector");
    }

    @Test
    void createTableWithEveryType() {
        sql(
                "CREATE TABLE types ("
                        + " b BOOLEAN, ti TINYINT, si SMALLINT, i INT, l BIGINT NOT NULL,"
                        + " f FLOAT, d DOUBLE, dc DECIMAL(12, 3), s STRING, c CHAR(3), v VARCHAR(9),"
                        + " bin BINARY(16), vb VARBINARY(20), dt DATE, tm TIME, ts TIMESTAMP(6),"
                        + " ltz TIMESTAMP_LTZ(3),"
                        + " arr ARRAY<INT NOT NULL>, m MAP<STRING, BIGINT>,"
                        + " r ROW<x INT, y STRING NOT NULL> NOT NULL) WITH ('format-version'='3')");

        Schema schema = icebergTable("types").schema();
        Map<String, String> types = new LinkedHashMap<>();
        for (Types.NestedField field : schema.columns()) {
            types.put(field.name(), (field.isOptional() ? "" : "!") + field.type());
        }
        assertThat(types)
                .containsExactly(
                        Map.entry("b", "boolean"),
                        Map.entry("ti", "int"),
                        Map.entry("si", "int"),
                        Map.entry("i", "int"),
                        Map.entry("l", "!long"),
                        Map.entry("f", "float"),
                        Map.entry("d", "double"),
                        Map.entry("dc", "decimal(12, 3)"),
                        Map.entry("s", "string"),
                        Map.entry("c", "string"),
                        Map.entry("v", "string"),
                        Map.entry("bin", "fixed[16]"),
                        Map.entry("vb", "binary"),
                        Map.entry("dt", "date"),
                        Map.entry("tm", "time"),
                        Map.entry("ts", "timestamp"),
                        Map.entry("ltz", "timestamptz"),
                        Map.entry("arr", "list<int>"),
                        Map.entry("m", "map<string, long>"),
                        Map.entry("r", "!struct<24: x: optional int, 25: y: required string>"));
        Types.ListType list = schema.findField("arr").type().asListType();
        assertThat(list.isElementRequired()).isTrue();
    }

    @Test
    void createTableWithNanosecondTimestamps() {
        String ddl =
                "CREATE TABLE t (ts9 TIMESTAMP(9), ltz9 TIMESTAMP_LTZ(9)) WITH ('format-version'='3')";
        if (!supportsNanosecondTimestamps()) {
            assertThatThrownBy(() -> sql(ddl))
                    .satisfies(error -> assertValidation(error, "timestamp_ns is not supported"));
            assertThat(verifier.tableExists(identifier("t"))).isFalse();
            return;
        }
        sql(ddl);
        Schema schema = icebergTable("t").schema();
        assertThat(schema.findField("ts9").type()).isEqualTo(Types.TimestampNanoType.withoutZone());
        assertThat(schema.findField("ltz9").type()).isEqualTo(Types.TimestampNanoType.withZone());
    }

    @Test
    void getTableShowsSchemaKeyPartitionsCommentAndOptions() throws Exception {
        sql(
                "CREATE TABLE t (id BIGINT NOT NULL COMMENT 'the key', data STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) COMMENT 'a table'"
                        + " PARTITIONED BY (data) WITH ('write.format.default'='orc')");

        CatalogBaseTable table = flinkCatalog().getTable(new ObjectPath(db, "t"));
        assertThat(table).isInstanceOf(CatalogTable.class);
        CatalogTable catalogTable = (CatalogTable) table;
        assertThat(catalogTable.getComment()).isEqualTo("a table");
        assertThat(catalogTable.getPartitionKeys()).containsExactly("data");
        assertThat(catalogTable.getOptions())
                .containsEntry("write.format.default", "orc")
                .containsEntry("format-version", "2")
                // where the table lives, for CREATE TABLE ... LIKE in another catalog
                .containsEntry("connector", "iceberg")
                .containsKey("src-catalog")
                .doesNotContainKeys("comment", "location");
        assertThat(catalogTable.getUnresolvedSchema().getColumns().get(0).getComment())
                .hasValue("the key");
        assertThat(catalogTable.getUnresolvedSchema().getPrimaryKey())
                .hasValueSatisfying(key -> assertThat(key.getColumnNames()).containsExactly("id"));

        List<Row> described = rows("DESCRIBE t");
        assertThat(described).hasSize(2);
        assertThat(described.get(0).getField(0)).isEqualTo("id");
        assertThat(described.get(0).getField(1)).isEqualTo("BIGINT");
        assertThat(described.get(0).getField(2)).isEqualTo(false);
        assertThat(described.get(1).getField(1)).isEqualTo("STRING");
    }

    @Test
    void changesMadeOutsideFlinkAreSeenDespiteTheCache() {
        sql("CREATE TABLE t (id BIGINT)");
        assertThat(rows("DESCRIBE t")).hasSize(1);

        icebergTable("t").updateSchema().addColumn("added", Types.StringType.get()).commit();

        List<Row> described = rows("DESCRIBE t");
        assertThat(described).hasSize(2);
        assertThat(described.get(1).getField(0)).isEqualTo("added");
    }

    @Test
    void createTableLikeCopiesSchemaPartitioningAndProperties() {
        sql(
                "CREATE TABLE src (id BIGINT NOT NULL COMMENT 'unique id', data STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (data)"
                        + " WITH ('format-version'='3', 'write.format.default'='avro')");
        sql("CREATE TABLE `%s`.`%s`.`copy` LIKE `%s`.`%s`.`src`", CATALOG, db, CATALOG, db);

        Table source = icebergTable("src");
        Table copy = icebergTable("copy");
        assertThat(copy.schema().asStruct()).isEqualTo(source.schema().asStruct());
        assertThat(copy.schema().identifierFieldIds())
                .isEqualTo(source.schema().identifierFieldIds());
        assertThat(copy.spec().fields()).isEqualTo(source.spec().fields());
        assertThat(TableUtil.formatVersion(copy)).isEqualTo(3);
        assertThat(copy.properties()).containsEntry("write.format.default", "avro");
        assertThat(copy.location()).isNotEqualTo(source.location());
    }

    @Test
    void createTableIfNotExistsKeepsTheExistingTable() {
        sql("CREATE TABLE t (id BIGINT)");
        sql("CREATE TABLE IF NOT EXISTS t (other STRING)");
        assertThat(icebergTable("t").schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id");
        assertThatThrownBy(() -> sql("CREATE TABLE t (other STRING)"))
                .hasStackTraceContaining("already exists");
    }

    // ------------------------------------------------------------------ ALTER TABLE

    @Test
    void alterTableSetAndResetProperties() {
        sql("CREATE TABLE `%s`.`%s`.`sample` (id BIGINT, data STRING)", CATALOG, db);
        sql("ALTER TABLE `%s`.`%s`.`sample` SET ('write.format.default'='avro')", CATALOG, db);
        sql("ALTER TABLE sample SET ('read.split.target-size'='1048576', 'k'='v')");
        assertThat(icebergTable("sample").properties())
                .containsEntry("write.format.default", "avro")
                .containsEntry("read.split.target-size", "1048576")
                .containsEntry("k", "v");

        sql("ALTER TABLE sample RESET ('k', 'write.format.default')");
        assertThat(icebergTable("sample").properties())
                .doesNotContainKeys("k", "write.format.default")
                .containsEntry("read.split.target-size", "1048576");
    }

    @Test
    void alterTableWithoutAListOfChangesAppliesOptionChanges() throws Exception {
        sql("CREATE TABLE t (id BIGINT) WITH ('a'='1', 'b'='2')");
        FlinkCatalog catalog = flinkCatalog();
        ObjectPath path = new ObjectPath(db, "t");
        CatalogTable current = (CatalogTable) catalog.getTable(path);
        Map<String, String> options = new HashMap<>(current.getOptions());
        options.put("a", "10");
        options.remove("b");
        options.put("c", "3");

        catalog.alterTable(path, current.copy(options), false);

        assertThat(icebergTable("t").properties())
                .containsEntry("a", "10")
                .containsEntry("c", "3")
                .doesNotContainKey("b");
    }

    @Test
    void alterTableUpgradesTheFormatVersion() {
        sql("CREATE TABLE t (id BIGINT) WITH ('format-version'='1')");
        sql("ALTER TABLE t SET ('format-version'='2')");
        assertThat(TableUtil.formatVersion(icebergTable("t"))).isEqualTo(2);
    }

    @Test
    void alterTableAddColumnsWithPositionsCommentsAndNotNullOnAnEmptyTable() {
        sql("CREATE TABLE t (id BIGINT, data STRING)");
        sql(
                "ALTER TABLE t ADD (first_col INT COMMENT 'at the front' FIRST,"
                        + " after_id DOUBLE NOT NULL AFTER id, tail ROW<a INT, b STRING>)");

        Schema schema = icebergTable("t").schema();
        assertThat(schema.columns())
                .extracting(Types.NestedField::name)
                .containsExactly("first_col", "id", "after_id", "data", "tail");
        assertThat(schema.findField("first_col").doc()).isEqualTo("at the front");
        assertThat(schema.findField("first_col").type()).isEqualTo(Types.IntegerType.get());
        assertThat(schema.findField("after_id").isRequired()).isTrue();
        assertThat(schema.findField("id").fieldId()).isEqualTo(1);
        assertThat(schema.findField("data").fieldId()).isEqualTo(2);
        assertThat(schema.findField("tail.b").type()).isEqualTo(Types.StringType.get());
    }

    @Test
    void alterTableModifyTypeNullabilityCommentAndPosition() {
        sql(
                "CREATE TABLE t (id INT NOT NULL, price DECIMAL(9, 2), ratio FLOAT, data STRING COMMENT"
                        + " 'old')");
        appendFakeFile("t");
        sql(
                "ALTER TABLE t MODIFY (id BIGINT NULL, price DECIMAL(12, 2), ratio DOUBLE FIRST,"
                        + " data STRING COMMENT 'new' AFTER ratio)");

        Schema schema = icebergTable("t").schema();
        assertThat(schema.columns())
                .extracting(Types.NestedField::name)
                .containsExactly("ratio", "data", "id", "price");
        assertThat(schema.findField("id").type()).isEqualTo(Types.LongType.get());
        assertThat(schema.findField("id").isOptional()).isTrue();
        assertThat(schema.findField("id").fieldId()).isEqualTo(1);
        assertThat(schema.findField("price").type()).isEqualTo(Types.DecimalType.of(12, 2));
        assertThat(schema.findField("ratio").type()).isEqualTo(Types.DoubleType.get());
        assertThat(schema.findField("data").doc()).isEqualTo("new");
    }

    @Test
    void alterTableRenameAndDropColumnsKeepFieldIds() {
        sql("CREATE TABLE t (id BIGINT, data STRING, extra INT)");
        sql("ALTER TABLE t RENAME data TO payload");
        sql("ALTER TABLE t DROP extra");

        Schema schema = icebergTable("t").schema();
        assertThat(schema.columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id", "payload");
        assertThat(schema.findField("payload").fieldId()).isEqualTo(2);
    }

    @Test
    void alterTablePrimaryKey() {
        sql("CREATE TABLE t (id BIGINT NOT NULL, region STRING NOT NULL, data STRING)");
        sql("ALTER TABLE t ADD PRIMARY KEY (id) NOT ENFORCED");
        assertThat(icebergTable("t").schema().identifierFieldNames()).containsExactly("id");

        sql("ALTER TABLE t MODIFY PRIMARY KEY (id, region) NOT ENFORCED");
        assertThat(icebergTable("t").schema().identifierFieldNames())
                .containsExactlyInAnyOrder("id", "region");

        sql("ALTER TABLE t DROP PRIMARY KEY");
        assertThat(icebergTable("t").schema().identifierFieldNames()).isEmpty();
    }

    @Test
    void alterTableRollsBackToASnapshot() {
        sql("CREATE TABLE t (id BIGINT)");
        appendFakeFile("t");
        long first = icebergTable("t").currentSnapshot().snapshotId();
        appendFakeFile("t");
        assertThat(icebergTable("t").currentSnapshot().snapshotId()).isNotEqualTo(first);

        sql("ALTER TABLE t SET ('current-snapshot-id'='%d')", first);

        assertThat(icebergTable("t").currentSnapshot().snapshotId()).isEqualTo(first);
        assertThat(icebergTable("t").properties()).doesNotContainKey("current-snapshot-id");
    }

    @Test
    void renameTable() {
        sql("CREATE TABLE `%s`.`%s`.`sample` (id BIGINT)", CATALOG, db);
        if (!supportsRenameTable()) {
            assertThatThrownBy(
                            () ->
                                    sql(
                                            "ALTER TABLE `%s`.`%s`.`sample` RENAME TO"
                                                    + " `%s`.`%s`.`new_sample`",
                                            CATALOG, db, CATALOG, db))
                    .hasStackTraceContaining("does not support renaming tables");
            assertThat(verifier.tableExists(identifier("sample"))).isTrue();
            return;
        }
        sql(
                "ALTER TABLE `%s`.`%s`.`sample` RENAME TO `%s`.`%s`.`new_sample`",
                CATALOG, db, CATALOG, db);
        assertThat(verifier.tableExists(identifier("sample"))).isFalse();
        assertThat(icebergTable("new_sample").schema().findField("id")).isNotNull();
    }

    @Test
    void dropTable() {
        sql("CREATE TABLE `%s`.`%s`.`sample` (id BIGINT)", CATALOG, db);
        sql("DROP TABLE `%s`.`%s`.`sample`", CATALOG, db);
        assertThat(verifier.tableExists(identifier("sample"))).isFalse();
        sql("DROP TABLE IF EXISTS sample");
        assertThatThrownBy(() -> sql("DROP TABLE sample"))
                .hasStackTraceContaining("does not exist");
    }

    @Test
    void showPartitionsListsIdentityPartitionsOfLiveFiles() {
        sql("CREATE TABLE t (id BIGINT, region STRING, dy INT) PARTITIONED BY (region, dy)");
        Table table = icebergTable("t");
        table.newAppend()
                .appendFile(fakeFile(table, "region=eu/dy=1"))
                .appendFile(fakeFile(table, "region=us/dy=1"))
                .appendFile(fakeFile(table, "region=eu/dy=2"))
                .appendFile(fakeFile(table, "region=eu/dy=1"))
                .commit();

        assertThat(rows("SHOW PARTITIONS t"))
                .containsExactlyInAnyOrder(
                        Row.of("region=eu/dy=1"),
                        Row.of("region=us/dy=1"),
                        Row.of("region=eu/dy=2"));
        assertThat(rows("SHOW PARTITIONS t PARTITION (region='eu')"))
                .containsExactlyInAnyOrder(Row.of("region=eu/dy=1"), Row.of("region=eu/dy=2"));

        FlinkCatalog catalog = flinkCatalog();
        ObjectPath path = new ObjectPath(db, "t");
        assertThat(
                        catalog.partitionExists(
                                path, new CatalogPartitionSpec(Map.of("region", "us", "dy", "1"))))
                .isTrue();
        assertThat(
                        catalog.partitionExists(
                                path, new CatalogPartitionSpec(Map.of("region", "us", "dy", "2"))))
                .isFalse();

        sql("CREATE TABLE flat (id BIGINT)");
        assertThatThrownBy(() -> rows("SHOW PARTITIONS flat"))
                .hasStackTraceContaining("is not partitioned");
    }

    // ------------------------------------------------------------------ what Iceberg cannot
    // express

    @Test
    void computedColumnIsRejectedAndNoTableIsCreated() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (id BIGINT, id2 AS id * 2)"))
                .satisfies(error -> assertValidation(error, "computed column 'id2'"))
                .satisfies(error -> assertValidation(error, "CREATE TABLE ... LIKE this table"));
        assertThat(verifier.tableExists(identifier("t"))).isFalse();
    }

    @Test
    void watermarkIsRejectedAndNoTableIsCreated() {
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE t (id BIGINT, ts TIMESTAMP(3),"
                                                + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"))
                .satisfies(error -> assertValidation(error, "watermark on column 'ts'"));
        assertThat(verifier.tableExists(identifier("t"))).isFalse();
    }

    @Test
    void metadataColumnConnectorOptionAndDistributionAreRejected() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (id BIGINT, m STRING METADATA)"))
                .satisfies(error -> assertValidation(error, "metadata column 'm'"));
        assertThatThrownBy(() -> sql("CREATE TABLE t (id BIGINT) WITH ('connector'='datagen')"))
                .satisfies(error -> assertValidation(error, "take no 'connector' option"));
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE t (id BIGINT) DISTRIBUTED BY RANGE(id) INTO 4"
                                                + " BUCKETS"))
                .satisfies(error -> assertValidation(error, "DISTRIBUTED BY RANGE"));
        assertThat(verifier.tableExists(identifier("t"))).isFalse();
    }

    @Test
    void unsupportedTypeNamesTheColumn() {
        // Flink's DDL parser has no INTERVAL columns: go through the catalog API as the planner
        // does.
        ResolvedSchema schema =
                ResolvedSchema.of(
                        Column.physical("id", DataTypes.BIGINT()),
                        Column.physical("span", DataTypes.INTERVAL(DataTypes.DAY())));
        ResolvedCatalogTable table =
                new ResolvedCatalogTable(
                        CatalogTable.newBuilder()
                                .schema(
                                        org.apache.flink.table.api.Schema.newBuilder()
                                                .fromResolvedSchema(schema)
                                                .build())
                                .build(),
                        schema);
        assertThatThrownBy(() -> flinkCatalog().createTable(new ObjectPath(db, "t"), table, false))
                .satisfies(
                        error -> assertValidation(error, "Column 'span' has Flink type INTERVAL"));
        assertThat(verifier.tableExists(identifier("t"))).isFalse();
    }

    @Test
    void viewsAreIcebergViewsWhereTheCatalogStoresThem() throws Exception {
        sql("CREATE TABLE t (id BIGINT, data STRING)");
        if (!(verifier instanceof ViewCatalog views)) {
            assertThatThrownBy(() -> sql("CREATE VIEW v AS SELECT id FROM t"))
                    .satisfies(error -> assertValidation(error, "does not store views"));
            assertThat(rows("SHOW VIEWS")).isEmpty();
            return;
        }
        tEnv.executeSql("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')").await();
        sql("CREATE VIEW v COMMENT 'later rows' AS SELECT id, data FROM t WHERE id > 1");

        View view = views.loadView(identifier("v"));
        assertThat(view.sqlFor("flink").dialect()).isEqualTo("flink");
        assertThat(view.sqlFor("flink").sql()).contains("`" + db + "`.`t`");
        assertThat(view.currentVersion().defaultNamespace()).isEqualTo(namespace(db));
        assertThat(view.currentVersion().defaultCatalog()).isEqualTo(CATALOG);
        assertThat(view.properties()).containsEntry("comment", "later rows");
        assertThat(view.properties().get("flink.original-query"))
                .as("the query as written, unqualified")
                .contains("FROM `t`")
                .contains("WHERE `id` > 1");
        assertThat(view.schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id", "data");
        assertThat(rows("SHOW VIEWS")).containsExactly(Row.of("v"));
        assertThat(rows("SHOW TABLES")).containsExactlyInAnyOrder(Row.of("t"), Row.of("v"));
        assertThat(rows("SELECT * FROM v"))
                .containsExactlyInAnyOrder(Row.of(2L, "b"), Row.of(3L, "c"));
        assertThat(rows("SHOW CREATE VIEW v").get(0).getField(0).toString())
                .contains("CREATE VIEW")
                .contains("later rows")
                .contains("WHERE");

        // Flink parses CREATE OR REPLACE VIEW but drops OR REPLACE (FLINK-17067): a missing view
        // is created, an existing one is not replaced and the error points to ALTER VIEW
        sql("CREATE OR REPLACE VIEW v2 AS SELECT id FROM t WHERE id = 2");
        assertThat(rows("SELECT * FROM v2")).containsExactly(Row.of(2L));
        assertThatThrownBy(() -> sql("CREATE OR REPLACE VIEW v2 AS SELECT id FROM t WHERE id = 3"))
                .satisfies(
                        error ->
                                assertThat(messages(error))
                                        .contains("Flink ignores OR REPLACE")
                                        .contains("ALTER VIEW v2 AS SELECT"));
        assertThat(rows("SELECT * FROM v2")).containsExactly(Row.of(2L));
        sql("DROP VIEW v2");

        sql("ALTER VIEW v AS SELECT id FROM t WHERE id = 1");
        View altered = views.loadView(identifier("v"));
        assertThat(altered.currentVersion().versionId())
                .isGreaterThan(view.currentVersion().versionId());
        assertThat(altered.schema().columns()).hasSize(1);
        assertThat(rows("SELECT * FROM v")).containsExactly(Row.of(1L));

        sql("ALTER VIEW v RENAME TO w");
        assertThat(views.viewExists(identifier("v"))).isFalse();
        assertThat(rows("SELECT * FROM w")).containsExactly(Row.of(1L));
        sql("DROP VIEW w");
        assertThat(views.viewExists(identifier("w"))).isFalse();
        assertThat(verifier.tableExists(identifier("t"))).isTrue();

        // A view another engine created lists, but Flink does not guess at its SQL.
        views.buildView(identifier("spark_view"))
                .withSchema(new Schema(Types.NestedField.optional(1, "x", Types.IntegerType.get())))
                .withQuery("spark", "SELECT 1 AS x")
                .withDefaultNamespace(namespace(db))
                .create();
        assertThat(rows("SHOW VIEWS")).containsExactly(Row.of("spark_view"));
        assertThatThrownBy(() -> rows("SELECT * FROM spark_view"))
                .satisfies(
                        error ->
                                assertThat(messages(error))
                                        .contains("has no Flink SQL")
                                        .contains("[spark]"));
    }

    private static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
        }
        return text.toString();
    }

    @Test
    void failingAlterTableLeavesTheTableUnchanged() {
        sql("CREATE TABLE t (id BIGINT NOT NULL, data STRING, n INT) WITH ('k'='v')");
        appendFakeFile("t");
        Table before = icebergTable("t");
        String metadataBefore = TableUtil.metadataFileLocation(before);

        // One good column and one computed column: nothing may be applied.
        assertThatThrownBy(() -> sql("ALTER TABLE t ADD (ok_col INT, bad AS id + 1)"))
                .satisfies(error -> assertValidation(error, "computed column 'bad'"));
        // A narrowing type change.
        assertThatThrownBy(() -> sql("ALTER TABLE t MODIFY (n STRING)"))
                .satisfies(error -> assertValidation(error, "Cannot change column type"));
        // Making a column NOT NULL when rows exist.
        assertThatThrownBy(() -> sql("ALTER TABLE t MODIFY (data STRING NOT NULL)"))
                .satisfies(error -> assertValidation(error, "cannot make column 'data' NOT NULL"));
        // Adding a NOT NULL column when rows exist.
        assertThatThrownBy(() -> sql("ALTER TABLE t ADD (required_col INT NOT NULL)"))
                .satisfies(
                        error ->
                                assertValidation(
                                        error, "cannot add the NOT NULL column 'required_col'"));
        // Watermarks.
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE t ADD (ts TIMESTAMP(3), WATERMARK FOR ts AS"
                                                + " ts)"))
                .satisfies(error -> assertValidation(error, "watermark"));
        // Resetting the location, and a snapshot id that does not exist.
        assertThatThrownBy(() -> sql("ALTER TABLE t RESET ('location')"))
                .satisfies(error -> assertValidation(error, "'location' cannot be reset"));
        assertThatThrownBy(() -> sql("ALTER TABLE t SET ('k'='w', 'current-snapshot-id'='42')"))
                .satisfies(error -> assertValidation(error, "names no snapshot"));

        Table after = icebergTable("t");
        assertThat(TableUtil.metadataFileLocation(after)).isEqualTo(metadataBefore);
        assertThat(after.schema().asStruct()).isEqualTo(before.schema().asStruct());
        assertThat(after.properties()).isEqualTo(before.properties());
    }

    // ------------------------------------------------------------------ helpers

    protected void sql(String statement, Object... args) {
        tEnv.executeSql(String.format(statement, args));
    }

    protected List<Row> rows(String statement, Object... args) {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> iterator =
                tEnv.executeSql(String.format(statement, args)).collect()) {
            iterator.forEachRemaining(rows::add);
        } catch (Exception e) {
            throw e instanceof RuntimeException runtime ? runtime : new RuntimeException(e);
        }
        return rows;
    }

    protected FlinkCatalog flinkCatalog() {
        return (FlinkCatalog) tEnv.getCatalog(CATALOG).orElseThrow();
    }

    protected Namespace namespace(String database) {
        return flinkCatalog().toIdentifier(new ObjectPath(database, "x")).namespace();
    }

    protected TableIdentifier identifier(String table) {
        return flinkCatalog().toIdentifier(new ObjectPath(db, table));
    }

    protected Table icebergTable(String table) {
        return verifier.loadTable(identifier(table));
    }

    protected SupportsNamespaces namespaces() {
        return (SupportsNamespaces) verifier;
    }

    /** Commits a data file that exists only in metadata: enough to give the table rows. */
    protected void appendFakeFile(String tableName) {
        Table table = icebergTable(tableName);
        table.newAppend().appendFile(fakeFile(table, null)).commit();
    }

    private static DataFile fakeFile(Table table, String partitionPath) {
        DataFiles.Builder builder =
                DataFiles.builder(table.spec())
                        .withPath(table.location() + "/data/fake-" + System.nanoTime() + ".parquet")
                        .withFileSizeInBytes(100)
                        .withRecordCount(1);
        if (partitionPath != null) {
            builder.withPartitionPath(partitionPath);
        }
        return builder.build();
    }

    /** Asserts that the error or one of its causes is a {@link ValidationException} saying this. */
    protected static void assertValidation(Throwable error, String expectedMessagePart) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = error; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        assertThat(chain)
                .as("cause chain of %s", error)
                .anySatisfy(
                        cause -> {
                            assertThat(cause).isInstanceOf(ValidationException.class);
                            assertThat(cause.getMessage()).contains(expectedMessagePart);
                        });
    }
}
