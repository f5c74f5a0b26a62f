package dev.icebergflink.source;

import static dev.icebergflink.source.ChangelogTestTables.expect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Changelog reads ({@code changelog-mode} = all) of tables changed in every way: appends, upserts
 * through equality deletes, position deletes, deletion vectors, overwrites, file deletes and
 * rewrites, each snapshot's changes checked row by row with their kinds, in Parquet, ORC and Avro.
 */
class ChangelogReadITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "ORC", "AVRO"})
    void everyKindOfSnapshotComesOutAsItsChanges(FileFormat format) throws Exception {
        ChangelogTestTables t = ChangelogTestTables.create(dir.resolve("t").toString(), 2, format);
        Table table = t.table();
        List<List<String>> expected = new ArrayList<>();

        DataFile a = t.append("a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        expected.add(expect(RowKind.INSERT, "a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9));

        DataFile b = t.upsert("b", 2, 3, 10);
        expected.add(
                concat(
                        expect(RowKind.UPDATE_BEFORE, "a", 2, 3),
                        expect(RowKind.UPDATE_AFTER, "b", 2, 3),
                        expect(RowKind.INSERT, "b", 10)));

        t.delete(t.positionDeletes(a, 5));
        expected.add(expect(RowKind.DELETE, "a", 5));

        t.delete(t.equalityDeletes(4));
        expected.add(expect(RowKind.DELETE, "a", 4));

        DataFile c = t.dataFile("c", 2);
        table.newOverwrite().deleteFile(b).addFile(c).commit();
        expected.add(
                concat(
                        expect(RowKind.UPDATE_BEFORE, "b", 2),
                        expect(RowKind.DELETE, "b", 3, 10),
                        expect(RowKind.UPDATE_AFTER, "c", 2)));

        // a rewrite changes no rows
        table.newRewrite()
                .validateFromSnapshot(t.current().snapshotId())
                .rewriteFiles(Set.of(c), Set.of(t.dataFile("c", 2)))
                .commit();

        // the rows of a deleted file that were still live: not 2, 3, 4 (equality deletes) or 5
        table.newDelete().deleteFile(a).commit();
        expected.add(expect(RowKind.DELETE, "a", 0, 1, 6, 7, 8, 9));

        List<RowData> rows = read(rangeTo(t, t.current().snapshotId()).build());
        assertSnapshots(rows, expected);

        // a projection without the key still pairs updates (the key is read and dropped)
        List<RowData> data =
                read(
                        rangeTo(t, t.current().snapshotId())
                                .project(table.schema().select("data"))
                                .build());
        assertThat(data).allMatch(row -> row.getArity() == 1);
        assertThat(
                        data.stream()
                                .map(
                                        row ->
                                                row.getRowKind().shortString()
                                                        + " "
                                                        + row.getString(0)))
                .containsExactlyElementsOf(
                        rows.stream()
                                .map(row -> row.getRowKind().shortString() + " " + row.getString(1))
                                .toList());
    }

    @Test
    void deletionVectorsOfFormatV3EmitOnlyTheNewlyDeletedRows() throws Exception {
        ChangelogTestTables t =
                ChangelogTestTables.create(dir.resolve("v3").toString(), 3, FileFormat.PARQUET);
        Table table = t.table();
        DataFile a = t.append("a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        long first = t.current().snapshotId();

        DeleteFile dv = SourceTestTables.writeDeletionVector(table, a, 1, 2);
        t.delete(dv);
        // a second deletion vector replaces the first and holds its positions too
        DeleteFile merged = SourceTestTables.writeDeletionVector(table, a, 1, 2, 7);
        table.newRowDelta()
                .validateFromSnapshot(t.current().snapshotId())
                .removeDeletes(dv)
                .addDeletes(merged)
                .commit();
        t.upsert("b", 8);

        List<RowData> rows =
                read(rangeTo(t, t.current().snapshotId()).startSnapshotId(first).build());
        assertSnapshots(
                rows,
                List.of(
                        expect(RowKind.DELETE, "a", 1, 2),
                        expect(RowKind.DELETE, "a", 7),
                        concat(
                                expect(RowKind.UPDATE_BEFORE, "a", 8),
                                expect(RowKind.UPDATE_AFTER, "b", 8))));
    }

    @Test
    void streamingReadEmitsTheTableThenEveryChange() throws Exception {
        ChangelogTestTables t =
                ChangelogTestTables.create(dir.resolve("s").toString(), 2, FileFormat.PARQUET);
        t.append("a", 0, 1, 2);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(TableLoader.fromHadoopTable(t.table().location()))
                        .changelogMode(ChangelogReadMode.ALL)
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .build();
        StreamExecutionEnvironment env = SourceITCaseSupport.env();
        env.setParallelism(1);
        try (CloseableIterator<RowData> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
                        .executeAndCollect()) {
            List<String> initial =
                    describeAll(SourceITCaseSupport.take(it, 3, Duration.ofMinutes(2)));
            assertThat(initial)
                    .containsExactlyInAnyOrderElementsOf(expect(RowKind.INSERT, "a", 0, 1, 2));

            t.upsert("b", 1);
            t.delete(t.equalityDeletes(2));
            List<String> changes =
                    describeAll(SourceITCaseSupport.take(it, 3, Duration.ofMinutes(2)));
            assertThat(changes).containsExactly("-U 1 a", "+U 1 b", "-D 2 a");
        }
    }

    @Test
    void aChangelogReadRefusesMoreThanOneReader() {
        ChangelogTestTables t =
                ChangelogTestTables.create(dir.resolve("p").toString(), 2, FileFormat.PARQUET);
        t.append("a", 0);
        IcebergSource<RowData> source = rangeTo(t, t.current().snapshotId()).build();
        StreamExecutionEnvironment env = SourceITCaseSupport.env();
        env.setParallelism(2);
        assertThatThrownBy(
                        () -> {
                            try (CloseableIterator<RowData> it =
                                    env.fromSource(
                                                    source,
                                                    WatermarkStrategy.noWatermarks(),
                                                    "changelog")
                                            .executeAndCollect()) {
                                it.forEachRemaining(row -> {});
                            }
                        })
                .rootCause()
                .hasMessageContaining("'changelog-mode' = 'all'")
                .hasMessageContaining("parallelism 2")
                .hasMessageContaining("setParallelism(1)");
    }

    @Test
    void filtersAndALimitApplyToTheEmittedChanges() throws Exception {
        ChangelogTestTables t =
                ChangelogTestTables.create(dir.resolve("f").toString(), 2, FileFormat.PARQUET);
        t.append("a", 0, 1, 2, 3);
        t.upsert("b", 1, 2);
        t.delete(t.equalityDeletes(3));
        long end = t.current().snapshotId();

        // removed rows keep the values they had and are selected by those; an update whose new
        // row the filter drops leaves the filtered rows as a delete, one whose old row it drops
        // enters them as an insert
        assertThat(describeAll(read(filtered(t, end, "a"))))
                .containsExactlyInAnyOrderElementsOf(
                        concat(
                                expect(RowKind.INSERT, "a", 0, 1, 2, 3),
                                expect(RowKind.DELETE, "a", 1, 2, 3)));
        assertThat(describeAll(read(filtered(t, end, "b"))))
                .containsExactlyInAnyOrderElementsOf(expect(RowKind.INSERT, "b", 1, 2));

        List<String> all = describeAll(read(rangeTo(t, end).build()));
        assertThat(describeAll(read(rangeTo(t, end).limit(5L).build())))
                .containsExactlyElementsOf(all.subList(0, 5));
    }

    private static IcebergSource<RowData> filtered(ChangelogTestTables t, long end, String data) {
        return rangeTo(t, end).filters(List.of(Expressions.equal("data", data))).build();
    }

    private static IcebergSource.Builder<RowData> rangeTo(ChangelogTestTables t, long end) {
        return IcebergSource.forRowData()
                .tableLoader(TableLoader.fromHadoopTable(t.table().location()))
                .changelogMode(ChangelogReadMode.ALL)
                .endSnapshotId(end);
    }

    /** Runs a bounded changelog read with one reader and returns its rows in order. */
    private static List<RowData> read(IcebergSource<RowData> source) throws Exception {
        StreamExecutionEnvironment env = SourceITCaseSupport.env();
        env.setParallelism(1);
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
                        .executeAndCollect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /**
     * The rows are the snapshots' changes in commit order: each snapshot's in any order within it,
     * but every removal before every addition.
     */
    private static void assertSnapshots(List<RowData> rows, List<List<String>> expected) {
        List<String> described = describeAll(rows);
        assertThat(described).hasSize(expected.stream().mapToInt(List::size).sum());
        int at = 0;
        for (List<String> snapshot : expected) {
            List<String> actual = described.subList(at, at + snapshot.size());
            assertThat(actual).containsExactlyInAnyOrderElementsOf(snapshot);
            int firstAddition = actual.size();
            for (int i = 0; i < actual.size(); i++) {
                if (actual.get(i).startsWith("+")) {
                    firstAddition = Math.min(firstAddition, i);
                } else {
                    assertThat(i)
                            .as("removal %s after an addition", actual.get(i))
                            .isLessThan(firstAddition);
                }
            }
            at += snapshot.size();
        }
    }

    private static List<String> describeAll(List<RowData> rows) {
        return rows.stream().map(ChangelogTestTables::describe).toList();
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }
}
