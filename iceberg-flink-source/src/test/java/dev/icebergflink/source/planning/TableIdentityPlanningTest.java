package dev.icebergflink.source.planning;

import static dev.icebergflink.source.SourceTestTables.append;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.SourceTestTables;
import dev.icebergflink.source.config.ScanContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming planner pinned to a table's UUID, on a Hadoop catalog whose re-created tables reuse
 * the metadata file names of the dropped ones: whatever version the new table reached, the next
 * round fails naming both UUIDs instead of stalling or reading the wrong table; a dropped table is
 * named as such and retried; the identity checks of idle rounds keep their interval; a position
 * whose branch head is gone fails instead of waiting.
 */
class TableIdentityPlanningTest {

    private static final TableIdentifier ID = TableIdentifier.of("db", "t");

    @TempDir Path dir;
    private HadoopCatalog catalog;
    private Table table;
    private final AtomicInteger freshLoads = new AtomicInteger();
    private final AtomicLong clock = new AtomicLong();

    @BeforeEach
    void createTable() {
        catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), dir.toString());
        catalog.createNamespace(Namespace.of("db"));
        table = create();
    }

    private Table create() {
        return catalog.createTable(
                ID,
                SourceTestTables.SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    /** Drops the table (its directory goes) and creates it again under the same name. */
    private Table recreate() {
        assertThat(catalog.dropTable(ID, true)).isTrue();
        return create();
    }

    private ContinuousSplitPlanner planner(Map<String, String> options, Duration checkInterval) {
        Map<String, String> all = new HashMap<>(options);
        all.put("streaming", "true");
        // the planner plans with a table of its own, as the enumerator does
        Table planned = catalog.loadTable(ID);
        ScanContext context = ScanContext.resolve(all, new Configuration(), planned, null, null);
        Supplier<Table> fresh =
                () -> {
                    freshLoads.incrementAndGet();
                    return catalog.loadTable(ID);
                };
        return new ContinuousSplitPlanner(
                new SplitPlanner(planned, context, null),
                context,
                TableIdentity.uuidOf(planned),
                fresh,
                checkInterval,
                clock::get);
    }

    /** A planner that has read versions v1..v3 of the table and is idle at its head. */
    private record Started(
            ContinuousSplitPlanner planner, SnapshotPosition position, String uuid) {}

    private Started startedAtVersion3() {
        append(table, 0, 3);
        append(table, 3, 5);
        ContinuousSplitPlanner planner = planner(Map.of(), Duration.ZERO);
        PlanningResult first = planner.planNext(null);
        PlanningResult idle = planner.planNext(first.toPosition());
        assertThat(idle.toPosition()).isEqualTo(first.toPosition());
        return new Started(planner, idle.toPosition(), TableIdentity.uuidOf(table));
    }

    private static void assertRecreated(Throwable error, String oldUuid, Table now) {
        assertThat(error)
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("Table hadoop.db.t was dropped and re-created")
                .hasMessageContaining("UUID " + oldUuid)
                .hasMessageContaining("now has UUID " + TableIdentity.uuidOf(now))
                .hasMessageContaining("without this read's state");
    }

    @Test
    void aDroppedTableIsNamedAndRetriedThenItsReCreationFails() {
        Started started = startedAtVersion3();
        assertThat(catalog.dropTable(ID, true)).isTrue();
        Throwable dropped = catchFailure(started, started.position());
        assertThat(dropped)
                .isNotInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("hadoop.db.t")
                .hasMessageContaining("does not exist any more");

        Table newTable = create(); // v1: the planner's table operations still look for v3
        assertRecreated(catchFailure(started, started.position()), started.uuid(), newTable);
    }

    /**
     * The stall of a Hadoop table: the re-created table reached the version the planner read last,
     * so a refresh keeps the old metadata and every round looks idle. Only the fresh load of the
     * idle round's identity check sees the new table.
     */
    @Test
    void aReCreatedTableAtTheSameVersionDoesNotStall() {
        Started started = startedAtVersion3();
        ContinuousSplitPlanner refreshOnly =
                new ContinuousSplitPlanner(
                        new SplitPlanner(
                                catalog.loadTable(ID),
                                ScanContext.resolve(
                                        Map.of("streaming", "true"),
                                        new Configuration(),
                                        table,
                                        null,
                                        null),
                                null),
                        ScanContext.resolve(
                                Map.of("streaming", "true"),
                                new Configuration(),
                                table,
                                null,
                                null),
                        TableIdentity.uuidOf(table),
                        null,
                        Duration.ZERO,
                        clock::get);
        refreshOnly.planNext(null);

        Table newTable = recreate();
        append(newTable, 100, 101); // v2
        append(newTable, 101, 102); // v3: the name the old table's last metadata had
        // Without a fresh load the round sees the old table and nothing new: a stall.
        PlanningResult stalled = refreshOnly.planNext(started.position());
        assertThat(stalled.splits()).isEmpty();
        assertThat(stalled.toPosition()).isEqualTo(started.position());

        assertRecreated(catchFailure(started, started.position()), started.uuid(), newTable);
    }

    @Test
    void aReCreatedTableBeyondTheVersionFailsThroughIcebergsOwnCheck() {
        Started started = startedAtVersion3();
        Table newTable = recreate();
        for (long id = 100; id < 104; id++) {
            append(newTable, id, id + 1); // v2..v5
        }
        Throwable error = catchFailure(started, started.position());
        assertRecreated(error, started.uuid(), newTable);
        assertThat(error.getCause()).hasMessageContaining("UUID does not match");
    }

    @Test
    void aRefreshedTableWithAnotherUuidFailsWithoutAFreshLoad() {
        append(table, 0, 2);
        ScanContext context =
                ScanContext.resolve(
                        Map.of("streaming", "true"), new Configuration(), table, null, null);
        ContinuousSplitPlanner planner =
                new ContinuousSplitPlanner(
                        new SplitPlanner(table, context, null),
                        context,
                        "00000000-0000-0000-0000-000000000000",
                        null,
                        Duration.ZERO,
                        clock::get);
        assertThatThrownBy(() -> planner.planNext(null))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("UUID 00000000-0000-0000-0000-000000000000")
                .hasMessageContaining("now has UUID " + TableIdentity.uuidOf(table));
    }

    @Test
    void idleRoundsLoadTheTableAtMostOncePerInterval() {
        append(table, 0, 2);
        ContinuousSplitPlanner planner = planner(Map.of(), Duration.ofSeconds(30));
        PlanningResult first = planner.planNext(null);
        assertThat(freshLoads).hasValue(0); // the first round is not idle

        SnapshotPosition position = first.toPosition();
        planner.planNext(position);
        assertThat(freshLoads).hasValue(1);
        clock.addAndGet(Duration.ofSeconds(29).toNanos());
        planner.planNext(position);
        assertThat(freshLoads).hasValue(1);
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        planner.planNext(position);
        assertThat(freshLoads).hasValue(2);

        // rounds that find appends do not load the table again
        clock.addAndGet(Duration.ofMinutes(5).toNanos());
        append(table, 2, 4);
        position = planner.planNext(position).toPosition();
        assertThat(freshLoads).hasValue(2);
        planner.planNext(position);
        assertThat(freshLoads).hasValue(3);
    }

    @Test
    void aPositionWhoseBranchHeadIsGoneFailsInsteadOfWaiting() {
        append(table, 0, 2);
        table.manageSnapshots().createBranch("b", table.currentSnapshot().snapshotId()).commit();
        ContinuousSplitPlanner planner = planner(Map.of("branch", "b"), Duration.ZERO);
        SnapshotPosition position = planner.planNext(null).toPosition();
        table.manageSnapshots().removeBranch("b").commit();
        assertThatThrownBy(() -> planner.planNext(position))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("last read snapshot " + position.snapshotId())
                .hasMessageContaining("no 'b' branch head any more");
    }

    @Test
    void aPositionInAReplacedTableWithoutSnapshotsFailsInsteadOfWaiting() {
        append(table, 0, 2);
        ContinuousSplitPlanner planner = planner(Map.of(), Duration.ZERO);
        SnapshotPosition position = planner.planNext(null).toPosition();
        // CREATE OR REPLACE TABLE: the same table (UUID), its history kept, no current snapshot
        catalog.newReplaceTableTransaction(
                        ID, SourceTestTables.SCHEMA, PartitionSpec.unpartitioned(), false)
                .commitTransaction();
        assertThat(catalog.loadTable(ID).currentSnapshot()).isNull();
        assertThatThrownBy(() -> planner.planNext(position))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("last read snapshot " + position.snapshotId())
                .hasMessageContaining("no main head any more");
    }

    private static Throwable catchFailure(Started started, SnapshotPosition position) {
        try {
            started.planner().planNext(position);
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("The round did not fail");
    }
}
