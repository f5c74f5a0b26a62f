package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.config.ReadMode;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.reader.IdentityRowDataConverter;
import dev.icebergflink.source.reader.ReadMetadataColumn;
import dev.icebergflink.testing.NotLoadingTableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder's steps: validation without a table, the plan and mode, and the assembly. */
class IcebergSourceBuilderTest {

    @TempDir Path dir;

    private String location;

    @BeforeEach
    void createTable() {
        location = dir.resolve("t").toString();
        SourceTestTables.create(location, 2);
    }

    private TableLoader loader() {
        return TableLoader.fromHadoopTable(location);
    }

    @Test
    void validateNeedsATableLoaderAndAPositiveBatchSize() {
        assertThatThrownBy(() -> IcebergSource.forRowData().validate())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tableLoader(..)");
        assertThatThrownBy(
                        () -> IcebergSource.forRowData().tableLoader(loader()).batchSize(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batchSize(..)")
                .hasMessageContaining("at least 1")
                .hasMessageContaining("got 0");
    }

    @Test
    void theBuiltSourceRunsWithTheResolvedPlanAndItsMode() {
        IcebergSource<RowData> bounded =
                IcebergSource.forRowData().tableLoader(loader()).limit(5L).build();
        assertThat(bounded.scanContext().mode()).isEqualTo(ReadMode.SNAPSHOT);
        assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(bounded.scanContext().limit()).isEqualTo(5);

        IcebergSource<RowData> unbounded =
                IcebergSource.forRowData().tableLoader(loader()).streaming(true).build();
        assertThat(unbounded.scanContext().mode()).isEqualTo(ReadMode.STREAMING_FROM_STRATEGY);
        assertThat(unbounded.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    }

    @Test
    void aStreamingReadLooksForNewSnapshotsEveryTenSecondsByDefault() {
        assertThat(FlinkReadOptions.MONITOR_INTERVAL.defaultValue())
                .isEqualTo(Duration.ofSeconds(10));
        IcebergSource<RowData> unbounded =
                IcebergSource.forRowData().tableLoader(loader()).streaming(true).build();
        assertThat(unbounded.scanContext().monitorInterval()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aPreloadedTableResolvesTheSourceWithoutLoadingItAndIsNotPartOfIt() throws Exception {
        Table table = loader().loadTable();
        table.updateProperties().set("read.split.target-size", "4096").commit();

        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(new NotLoadingTableLoader())
                        .table(table)
                        .project(table.schema().select("id"))
                        .build();

        assertThat(source.scanContext().splitSize()).isEqualTo(4096L);
        assertThat(source.scanContext().projectedSchema().columns())
                .extracting(column -> column.name())
                .containsExactly("id");
        IcebergSource<RowData> copy =
                InstantiationUtil.deserializeObject(
                        InstantiationUtil.serializeObject(source), getClass().getClassLoader());
        assertThat(copy.scanContext().splitSize()).isEqualTo(4096L);

        // FlinkSource hands the table on as well
        assertThatThrownBy(
                        () ->
                                FlinkSource.forRowData()
                                        .env(
                                                org.apache.flink.streaming.api.environment
                                                        .StreamExecutionEnvironment
                                                        .getExecutionEnvironment())
                                        .table(table)
                                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs tableLoader(..) also with table(" + table.name() + ")")
                .hasMessageContaining("the enumerator loads the table through it");
    }

    @Test
    void aWatermarkColumnAndAnAssignerFactoryExcludeEachOther() {
        assertThatThrownBy(
                        () ->
                                IcebergSource.forRowData()
                                        .tableLoader(loader())
                                        .watermarkColumn("ts")
                                        .assignerFactory(new SimpleSplitAssignerFactory())
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'watermark-column' = 'ts'")
                .hasMessageContaining("assignerFactory(SimpleSplitAssignerFactory)");
    }

    @Test
    void aChangelogReadNeedsRowKindsAndCommitOrder() {
        assertThatThrownBy(
                        () ->
                                IcebergSource.forGenericRecord()
                                        .tableLoader(loader())
                                        .changelogMode(ChangelogReadMode.ALL)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'changelog-mode' = 'all'")
                .hasMessageContaining("has no row kind")
                .hasMessageContaining("read RowData or Row");
        assertThatThrownBy(
                        () ->
                                IcebergSource.forRowData()
                                        .tableLoader(loader())
                                        .changelogMode(ChangelogReadMode.ALL)
                                        .watermarkColumn("ts")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'changelog-mode' = 'all' reads snapshots in commit order")
                .hasMessageContaining("'watermark-column'");
        IcebergSource<org.apache.flink.types.Row> rows =
                IcebergSource.forRow()
                        .tableLoader(loader())
                        .changelogMode(ChangelogReadMode.ALL)
                        .build();
        assertThat(rows.scanContext().readsChangelog()).isTrue();
    }

    @Test
    void aChangelogReadOffersOnlyItsOwnMetadataColumns() {
        Table table = loader().loadTable();
        IcebergSource.Builder<RowData> changelog =
                IcebergSource.forRowData()
                        .tableLoader(loader())
                        .changelogMode(ChangelogReadMode.ALL);
        ScanContext plan = changelog.resolve(table);
        ConverterFactory<RowData> converters =
                schema -> new IdentityRowDataConverter(FlinkSchemaUtil.convert(schema));

        assertThatThrownBy(
                        () ->
                                IcebergSourceAssembly.assemble(
                                        loader(),
                                        table,
                                        plan,
                                        converters,
                                        null,
                                        10,
                                        List.of(
                                                ReadMetadataColumn.SNAPSHOT_ID,
                                                ReadMetadataColumn.POS,
                                                ReadMetadataColumn.FILE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "offers only the metadata columns 'snapshot_id' and 'commit_time'")
                .hasMessageContaining("not '_pos', '_file'");
        assertThat(
                        IcebergSourceAssembly.assemble(
                                        loader(),
                                        table,
                                        plan,
                                        converters,
                                        null,
                                        10,
                                        List.of(ReadMetadataColumn.COMMIT_TIME))
                                .scanContext()
                                .readsChangelog())
                .isTrue();
    }
}
