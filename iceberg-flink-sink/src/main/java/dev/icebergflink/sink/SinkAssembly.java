package dev.icebergflink.sink;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.CommitterSettings;
import dev.icebergflink.sink.distribution.DistributionTopology;
import dev.icebergflink.sink.writer.RowDataTaskWriterFactory;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link SinkPlan} into the {@link IcebergSink}: the distribution in front of the writers,
 * the writers' file factory, and the settings of the aggregation and the committer.
 *
 * <p>It exists so that the sink's topology is built in one place from decisions already made:
 * nothing here checks options or picks modes ({@link SinkPlan} did), so the DataStream builder and
 * the SQL sink get the same sink from the same plan.
 */
@Internal
public final class SinkAssembly {

    private static final Logger LOG = LoggerFactory.getLogger(SinkAssembly.class);

    private SinkAssembly() {}

    /**
     * The sink of {@code plan}.
     *
     * @param tableLoader the loader of the plan's table (cloned; the caller keeps its own)
     * @throws IllegalArgumentException when the distribution cannot work on the table (e.g. range
     *     without a sort order or partition spec)
     */
    public static IcebergSink assemble(TableLoader tableLoader, SinkPlan plan) {
        return assemble(tableLoader, plan, committerSettings(tableLoader, plan));
    }

    /**
     * The sink of {@code plan} that commits nothing into the catalog: each checkpoint's files are
     * recorded under {@code stagingLocation} for {@link StagedWrites} to commit later (Flink's
     * atomic {@code CREATE TABLE ... AS SELECT}). The loader's table may be one that no catalog
     * holds yet: the sink only writes files into its location.
     *
     * @param tableLoader the loader of the plan's table (cloned; the caller keeps its own)
     * @param stagingLocation a directory the table's FileIO can write, used by this job alone
     * @throws IllegalArgumentException for a branch other than {@code main} or table maintenance
     *     after commits, which a staged write cannot do
     */
    public static IcebergSink assembleStaged(
            TableLoader tableLoader, SinkPlan plan, String stagingLocation) {
        String branch = plan.writeConf().branch();
        if (branch != null && !branch.isBlank() && !SnapshotRef.MAIN_BRANCH.equals(branch)) {
            throw new IllegalArgumentException(
                    "A staged write creates or replaces the table with its rows on branch 'main';"
                            + " option 'branch'='"
                            + branch
                            + "' cannot apply. Remove the option, and create the branch after"
                            + " the table");
        }
        if (plan.writeConf().maintenance().enabled()) {
            throw new IllegalArgumentException(
                    "A staged write commits once, after the job, so table maintenance cannot run"
                            + " after its commits ('compaction-enabled', 'flink-maintenance.*');"
                            + " remove those options, or run the maintenance on the table once it"
                            + " exists");
        }
        CommitterSettings.Builder settings =
                CommitterSettings.builder(tableLoader.clone())
                        .branch(plan.writeConf().branch())
                        .snapshotProperties(plan.snapshotProperties())
                        .uidSuffix(plan.uidSuffix())
                        .operatorUids(plan.operatorUids())
                        .stageTo(stagingLocation);
        return assemble(tableLoader, plan, settings.build());
    }

    private static IcebergSink assemble(
            TableLoader tableLoader, SinkPlan plan, CommitterSettings committer) {
        DistributionTopology distribution = distribution(plan);
        RowDataTaskWriterFactory writers = writerFactory(plan);
        LOG.info("Iceberg sink: {}", plan);
        return new IcebergSink(
                tableLoader.clone(),
                plan.writeConf(),
                committer,
                writers,
                distribution,
                plan.uidSuffix(),
                plan.table().name());
    }

    /** Distribution and de-duplication in front of the writers. */
    static DistributionTopology distribution(SinkPlan plan) {
        Table table = plan.table();
        return new DistributionTopology(
                plan.distributionMode(),
                plan.inputType(),
                table.schema(),
                table.spec(),
                SinkValidation.positions(table.schema(), plan.equalityFieldIds()),
                plan.modes().dedup(),
                plan.writeConf().writeParallelism(),
                plan.uidSuffix(),
                plan.rangeOrder(),
                plan.writeConf().rangeSortKeyBaseWeight());
    }

    /** The writers' task-writer factory. */
    static RowDataTaskWriterFactory writerFactory(SinkPlan plan) {
        FlinkWriteConf conf = plan.writeConf();
        return new RowDataTaskWriterFactory(
                plan.table(),
                plan.inputType(),
                conf.format(),
                conf.targetFileSizeBytes(),
                conf.writeProperties(plan.modes().writer().appendsOnly()),
                plan.modes().writer(),
                plan.deleteKeyIds());
    }

    /** The settings of the aggregation and the committer. */
    static CommitterSettings committerSettings(TableLoader tableLoader, SinkPlan plan) {
        CommitterSettings.Builder settings =
                CommitterSettings.builder(tableLoader.clone())
                        .branch(plan.writeConf().branch())
                        .snapshotProperties(plan.snapshotProperties())
                        .uidSuffix(plan.uidSuffix())
                        .operatorUids(plan.operatorUids())
                        .mode(plan.modes().commit());
        plan.staticOverwriteFilter().ifPresent(settings::staticOverwrite);
        return settings.build();
    }
}
