package dev.icebergflink.maintenance.orphan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.cleanup.DeletionSummary;
import dev.icebergflink.maintenance.task.MappingFunction;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.actions.DeleteOrphanFiles.PrefixMismatchMode;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The steps of streaming orphan deletion run by hand, as the topology runs them: the plan's items
 * through the mapper, the records into buckets by hash, each bucket through the reducer, the
 * results through the finisher. The table is a Hadoop table in a temporary folder whose data files
 * are placeholders (orphan detection never reads them).
 */
class OrphanStepsTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.required(2, "part", Types.StringType.get()));
    private static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("part").build();
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final int BUCKETS = 8;

    @TempDir Path dir;

    private Table table;
    private Path root;

    private void createTable(Map<String, String> properties) {
        Map<String, String> all = new java.util.HashMap<>(properties);
        all.put(TableProperties.FORMAT_VERSION, "2");
        table =
                new HadoopTables(new Configuration())
                        .create(SCHEMA, SPEC, all, dir.resolve("t").toUri().toString());
        root = dir.resolve("t");
    }

    @ParameterizedTest(name = "prefix listing {0}")
    @ValueSource(booleans = {true, false})
    void deletesExactlyTheOldFilesNothingRefersTo(boolean prefixListing) throws Exception {
        createTable(Map.of());
        DataFile a1 = commitFile("part=a", "a-1.parquet");
        commitFile("part=a", "a-2.parquet");
        DataFile b1 = commitFile("part=b", "b-1.parquet");
        // Removed from the current snapshot, still referenced by an older one: kept.
        table.newDelete().deleteFile(b1).commit();
        List<Path> orphans =
                List.of(
                        write("data/part=a/orphan-a.parquet"),
                        write("data/part=z/orphan-z.parquet"),
                        write("data/orphan-in-data.parquet"),
                        write("metadata/stale-manifest.avro"),
                        write("orphan-at-root.txt"),
                        write("elsewhere/deeper/and-deeper/orphan.bin"));
        Path hidden = write("data/part=a/.a-1.parquet.crc");
        Path hiddenDir = write("data/_temporary/attempt/part-0.parquet");
        makeEverythingOld();
        Path young = write("data/part=b/in-flight.parquet");
        Set<Path> referenced = referencedFiles();

        TaskFinisher.Outcome outcome =
                run(steps(prefixListing, PrefixMismatchMode.ERROR, Map.of()));

        assertThat(outcome.filesRemoved()).isEqualTo(orphans.size());
        for (Path orphan : orphans) {
            assertThat(orphan).doesNotExist();
        }
        assertThat(files()).containsAll(referenced);
        assertThat(referenced).contains(Path.of(java.net.URI.create(a1.location()).getPath()));
        assertThat(young).exists();
        assertThat(hidden).exists();
        assertThat(hiddenDir).exists();

        // A second run finds nothing left.
        assertThat(run(steps(prefixListing, PrefixMismatchMode.ERROR, Map.of())).filesRemoved())
                .isZero();
    }

    @Test
    void theListingIsSplitByDirectoryAndTheManifestsByGroup() throws Exception {
        createTable(Map.of());
        for (String part : List.of("a", "b", "c")) {
            commitFile("part=" + part, part + ".parquet");
        }
        write("orphan-at-root.txt");

        Steps steps = steps(true, PrefixMismatchMode.ERROR, Map.of());
        steps.planner.open();
        List<OrphanItem> items = new ArrayList<>();
        for (byte[] item : steps.planner.plan(System.currentTimeMillis()).items()) {
            items.add(
                    SimpleVersionedSerialization.readVersionAndDeSerialize(
                            new OrphanItemSerializer(), item));
        }
        steps.planner.close();

        String location = table.location();
        assertThat(items)
                .filteredOn(OrphanItem.Listing.class::isInstance)
                .map(item -> (OrphanItem.Listing) item)
                .extracting(l -> l.directory().substring(location.length()), l -> l.deep())
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("", false),
                        org.assertj.core.groups.Tuple.tuple("/metadata", true),
                        org.assertj.core.groups.Tuple.tuple("/data/part=a", true),
                        org.assertj.core.groups.Tuple.tuple("/data/part=b", true),
                        org.assertj.core.groups.Tuple.tuple("/data/part=c", true));
        // Three commits, one manifest each, read by mappers; the rest are named by the planner.
        assertThat(items)
                .filteredOn(OrphanItem.Manifests.class::isInstance)
                .flatMap(item -> ((OrphanItem.Manifests) item).manifests())
                .hasSize(3);
        assertThat(items).anyMatch(OrphanItem.Referenced.class::isInstance);
    }

    @Test
    void aPrefixMismatchFailsTheRunNamingBothSpellingsAndKeepsTheFile() throws Exception {
        createTable(Map.of());
        Path mismatched = mismatchedFile();
        makeEverythingOld();

        assertThatThrownBy(() -> run(steps(true, PrefixMismatchMode.ERROR, Map.of())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Found 1 files")
                .hasMessageContaining("file:" + mismatched)
                .hasMessageContaining("hdfs://namenode:8020" + mismatched)
                .hasMessageContaining("prefixMismatchMode");
        assertThat(mismatched).exists();
    }

    @Test
    void ignoreKeepsAMismatchedFileAndDeleteDeletesIt() throws Exception {
        createTable(Map.of());
        Path mismatched = mismatchedFile();
        Path orphan = write("data/part=a/orphan.parquet");
        makeEverythingOld();

        assertThat(run(steps(true, PrefixMismatchMode.IGNORE, Map.of())).filesRemoved())
                .isEqualTo(1);
        assertThat(orphan).doesNotExist();
        assertThat(mismatched).exists();

        assertThat(run(steps(true, PrefixMismatchMode.DELETE, Map.of())).filesRemoved())
                .isEqualTo(1);
        assertThat(mismatched).doesNotExist();
    }

    @Test
    void equalSchemesMakeTwoSpellingsOneFile() throws Exception {
        createTable(Map.of());
        Path mismatched = mismatchedFile();
        makeEverythingOld();

        assertThat(
                        run(steps(true, PrefixMismatchMode.ERROR, Map.of("hdfs,viewfs", "file")))
                                .filesRemoved())
                .isZero();
        assertThat(mismatched).exists();
    }

    @Test
    void aManifestThatCannotBeReadFailsTheMapperAndNothingIsDeleted() throws Exception {
        createTable(Map.of());
        commitFile("part=a", "a-1.parquet");
        Path orphan = write("data/part=a/orphan.parquet");
        makeEverythingOld();
        table.refresh();
        Path manifest =
                Path.of(
                        java.net.URI.create(
                                table.currentSnapshot().allManifests(table.io()).get(0).path()));
        Files.delete(manifest);

        assertThatThrownBy(() -> run(steps(true, PrefixMismatchMode.ERROR, Map.of())))
                .hasMessageContaining(manifest.getFileName().toString());
        assertThat(orphan).exists();
    }

    @Test
    void aTableWithGcDisabledIsNeverTouched() throws Exception {
        createTable(Map.of(TableProperties.GC_ENABLED, "false"));
        Path orphan = write("data/orphan.parquet");
        makeEverythingOld();

        Steps steps = steps(true, PrefixMismatchMode.ERROR, Map.of());
        steps.planner.open();
        try {
            assertThatThrownBy(() -> steps.planner.plan(System.currentTimeMillis()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("gc.enabled property is false");
        } finally {
            steps.planner.close();
        }
        assertThat(orphan).exists();
    }

    /** The three orphan steps on the test table, each with its own loader, as the builder makes. */
    private record Steps(TaskPlanner planner, OrphanMapping mapper, OrphanJudging judge) {}

    private Steps steps(
            boolean prefixListing, PrefixMismatchMode mode, Map<String, String> equalSchemes) {
        return new Steps(
                new OrphanPlanning(loader(), null, HOUR, prefixListing),
                new OrphanMapping(loader()),
                new OrphanJudging(loader(), mode, new LocationPrefixes(equalSchemes, Map.of()), 2));
    }

    private TableLoader loader() {
        return TableLoader.fromHadoopTable(table.location());
    }

    /** Runs one orphan deletion through the steps, as the two-stage topology does. */
    private static TaskFinisher.Outcome run(Steps steps) throws Exception {
        steps.planner.open();
        steps.mapper.open(0, 0);
        steps.judge.open(0, 0);
        try {
            TaskPlanner.Plan plan = steps.planner.plan(System.currentTimeMillis());
            Map<Integer, List<byte[]>> buckets = new TreeMap<>();
            for (byte[] item : plan.items()) {
                steps.mapper.process(
                        item,
                        (hash, record) ->
                                buckets.computeIfAbsent(
                                                MappingFunction.bucketOf(hash, BUCKETS),
                                                b -> new ArrayList<>())
                                        .add(record));
            }
            List<byte[]> results = new ArrayList<>();
            for (List<byte[]> bucket : buckets.values()) {
                results.add(steps.judge.reduce(bucket));
            }
            return new DeletionSummary("DeleteOrphanFiles").finish(plan.header(), results);
        } finally {
            steps.planner.close();
            steps.mapper.close();
            steps.judge.close();
        }
    }

    /** A data file of a partition, written as a placeholder and appended in its own commit. */
    private DataFile commitFile(String partition, String name) throws IOException {
        Path file = write("data/" + partition + "/" + name);
        DataFile dataFile = dataFile(file.toUri().toString(), partition, Files.size(file));
        table.newAppend().appendFile(dataFile).commit();
        return dataFile;
    }

    /** A file on disk that the table references under another scheme and authority. */
    private Path mismatchedFile() throws IOException {
        Path file = write("data/part=a/mismatched.parquet");
        table.newAppend()
                .appendFile(dataFile("hdfs://namenode:8020" + file, "part=a", Files.size(file)))
                .commit();
        return file;
    }

    private static DataFile dataFile(String location, String partition, long size) {
        return DataFiles.builder(SPEC)
                .withPath(location)
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath(partition)
                .withFileSizeInBytes(size)
                .withRecordCount(1)
                .build();
    }

    private Path write(String relative) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, relative);
    }

    private void makeEverythingOld() throws IOException {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 2 * HOUR);
        for (Path file : files()) {
            Files.setLastModifiedTime(file, old);
        }
    }

    /** Every file the table's metadata refers to, on local disk. */
    private Set<Path> referencedFiles() {
        table.refresh();
        Set<Path> files = new HashSet<>();
        for (String key :
                new dev.icebergflink.maintenance.cleanup.ReachableFiles(table).allKeys()) {
            files.add(Path.of(key));
        }
        return files;
    }

    private Set<Path> files() throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).collect(Collectors.toSet());
        }
    }
}
