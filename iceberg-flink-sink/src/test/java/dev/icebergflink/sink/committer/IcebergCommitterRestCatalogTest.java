package dev.icebergflink.sink.committer;

import static dev.icebergflink.sink.committer.SinkTestTables.dataFile;
import static dev.icebergflink.sink.committer.SinkTestTables.history;
import static dev.icebergflink.sink.committer.SinkTestTables.liveDataFiles;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.ALREADY_COMMITTED;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.COMMITTED;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.RETRY_LATER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import dev.icebergflink.testing.servers.RestCommitFaults.Fault;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The committer against a real REST catalog server whose answers to commits are disturbed: a commit
 * the server applied but answered with an error must land exactly once.
 */
class IcebergCommitterRestCatalogTest {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    private static final CommitOwner OWNER =
            new CommitOwner("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", "0f0f", "run-1");

    private static final AtomicInteger TABLES = new AtomicInteger();

    private TableIdentifier identifier;
    private Table table;
    private TableLoader loader;

    @BeforeEach
    void createTable() {
        Catalog backend = REST.backend();
        if (!((SupportsNamespaces) backend).namespaceExists(Namespace.of("db"))) {
            ((SupportsNamespaces) backend).createNamespace(Namespace.of("db"), new HashMap<>());
        }
        identifier = TableIdentifier.of("db", "t" + TABLES.incrementAndGet());
        CatalogLoader catalog =
                CatalogLoader.rest("rest", new Configuration(), REST.clientProperties());
        loader = TableLoader.fromCatalog(catalog, identifier);
        table =
                catalog.loadCatalog()
                        .createTable(
                                identifier, SinkTestTables.SCHEMA, PartitionSpec.unpartitioned());
    }

    @AfterEach
    void clearFaults() {
        REST.commitFaults().clear();
        CommitterTestHooks.clear();
    }

    private IcebergCommittable committable(long checkpoint, String file) {
        WriteResult result =
                WriteResult.builder().addDataFiles(dataFile(table, file, null, 1)).build();
        return new CommittableFactory()
                .create(() -> table, OWNER, checkpoint, false, List.of(result));
    }

    private static List<TestingCommitRequest.Outcome> commit(
            IcebergCommitter committer, List<TestingCommitRequest> requests) {
        requests.forEach(TestingCommitRequest::startAttempt);
        committer.commit(new ArrayList<CommitRequest<IcebergCommittable>>(requests));
        List<TestingCommitRequest.Outcome> outcomes = new ArrayList<>();
        requests.forEach(r -> outcomes.add(r.outcome()));
        return outcomes;
    }

    private IcebergCommitter committer() {
        return new IcebergCommitter(
                CommitterSettings.builder(loader).mode(CommitMode.APPEND).build(),
                UnregisteredMetricsGroup.createOperatorMetricGroup());
    }

    @ParameterizedTest
    @EnumSource(
            value = Fault.class,
            names = {"APPLY_THEN_409", "APPLY_THEN_429", "APPLY_THEN_503"})
    void aCommitTheServerAppliedButAnsweredWithAnErrorLandsOnce(Fault fault) throws Exception {
        try (IcebergCommitter committer = committer()) {
            assertThat(commit(committer, List.of(new TestingCommitRequest(committable(1, "f1")))))
                    .containsExactly(COMMITTED);
            REST.commitFaults().disturbNextCommits(fault);
            List<TestingCommitRequest> requests =
                    List.of(
                            new TestingCommitRequest(committable(2, "f2")),
                            new TestingCommitRequest(committable(3, "f3")));
            List<TestingCommitRequest.Outcome> first = commit(committer, requests);
            if (first.get(0) == RETRY_LATER) {
                // the outcome stayed unknown: Flink retries both, in order
                assertThat(first).containsExactly(RETRY_LATER, RETRY_LATER);
                assertThat(commit(committer, requests))
                        .containsExactly(ALREADY_COMMITTED, COMMITTED);
            } else {
                // Iceberg's REST client found its own snapshot in the table after the error
                assertThat(first).containsExactly(COMMITTED, COMMITTED);
            }
            assertThat(REST.commitFaults().disturbedCommits()).isEqualTo(1);
        }
        Table reloaded = loader.clone().loadTable();
        assertThat(liveDataFiles(reloaded, "main")).containsExactlyInAnyOrder("f1", "f2", "f3");
        assertThat(history(reloaded, "main"))
                .extracting(s -> s.summary().get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID))
                .containsExactly("1", "2", "3");
    }

    @Test
    void anEarlierAttemptThatLandsWhileTheCommitIsInFlightIsNotCommittedAgain() throws Exception {
        IcebergCommittable two = committable(2, "f2");
        IcebergCommittable earlierAttempt =
                new IcebergCommittableSerializer()
                        .deserialize(
                                IcebergCommittableSerializer.CURRENT_VERSION,
                                new IcebergCommittableSerializer().serialize(two));
        try (IcebergCommitter committer = committer();
                IcebergCommitter earlier = committer()) {
            assertThat(commit(committer, List.of(new TestingCommitRequest(committable(1, "f1")))))
                    .containsExactly(COMMITTED);
            // the attempt from before a restart, still in the server's queue, lands after this
            // committer's lookup: the server refuses the stale commit (409), Iceberg refreshes and
            // applies again, and the committer's check inside that retry recognises the landing
            // the hook is static, so it also runs for the earlier attempt's own commit: skip that
            CommitterTestHooks.install(
                    c -> {
                        if (c != earlierAttempt) {
                            assertThat(
                                            commit(
                                                    earlier,
                                                    List.of(
                                                            new TestingCommitRequest(
                                                                    earlierAttempt))))
                                    .containsExactly(COMMITTED);
                        }
                    },
                    c -> {});
            assertThat(commit(committer, List.of(new TestingCommitRequest(two))))
                    .containsExactly(ALREADY_COMMITTED);
            assertThat(committer.metrics().failedCommits()).isZero();
        }
        Table reloaded = loader.clone().loadTable();
        assertThat(liveDataFiles(reloaded, "main")).containsExactlyInAnyOrder("f1", "f2");
        assertThat(history(reloaded, "main")).hasSize(2);
    }

    @Test
    void aRefusedCommitIsRetriedAndLandsOnce() throws Exception {
        try (IcebergCommitter committer = committer()) {
            REST.commitFaults().disturbNextCommits(Fault.REFUSE_WITH_503);
            List<TestingCommitRequest> requests =
                    List.of(new TestingCommitRequest(committable(1, "f1")));
            List<TestingCommitRequest.Outcome> first = commit(committer, requests);
            if (first.get(0) == RETRY_LATER) {
                assertThat(commit(committer, requests)).containsExactly(COMMITTED);
            } else {
                assertThat(first).containsExactly(COMMITTED);
            }
        }
        Table reloaded = loader.clone().loadTable();
        assertThat(liveDataFiles(reloaded, "main")).containsExactly("f1");
        assertThat(history(reloaded, "main")).hasSize(1);
    }
}
