package dev.icebergflink.maintenance.api;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.cleanup.DeletionSummary;
import dev.icebergflink.maintenance.orphan.LocationPrefixes;
import dev.icebergflink.maintenance.orphan.OrphanJudging;
import dev.icebergflink.maintenance.orphan.OrphanMapping;
import dev.icebergflink.maintenance.orphan.OrphanPlanning;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.actions.DeleteOrphanFiles.PrefixMismatchMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes orphan files inside a running Flink job: files under the table location (or {@link
 * Builder#location}) that no metadata of the table refers to, left behind by failed writes,
 * cut-short compactions or expirations.
 *
 * <p>The work is spread over the task's parallelism: the location is listed in parts (one per
 * directory below the top levels, such as a partition directory) and the metadata read in parts
 * (groups of manifests) by parallel mappers; every listed file and every reference is routed by its
 * path to one of many buckets, and the bucket's reducer, once the whole run is in, deletes the
 * files listed but never referenced. No operator holds the whole table's file list.
 *
 * <p>Concurrent writers are safe as long as no write takes longer than {@link Builder#minAge}: a
 * file younger than that is never deleted, since it may belong to a commit in progress. Everything
 * any snapshot of any branch or tag refers to is kept: metadata JSON files, the version hint,
 * manifest lists, manifests, data and delete files, statistics files. Hidden files (names starting
 * with {@code .} or {@code _}, except partition directories like {@code _key=1}) are never deleted.
 * A table whose {@code gc.enabled} property is false is never touched: its runs fail.
 */
@PublicEvolving
public final class DeleteOrphanFiles {

    /** How old an unreferenced file must be to be deleted, by default. */
    public static final Duration DEFAULT_MIN_AGE = Duration.ofDays(3);

    /** Files per deletion request by default. */
    public static final int DEFAULT_DELETE_BATCH_SIZE = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(DeleteOrphanFiles.class);

    private DeleteOrphanFiles() {}

    /** A builder of the task; add it with {@link TableMaintenance.Builder#add}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link DeleteOrphanFiles} task. */
    @PublicEvolving
    public static final class Builder extends MaintenanceTaskBuilder<Builder> {

        private Duration minAge = DEFAULT_MIN_AGE;
        private String location;
        private PrefixMismatchMode prefixMismatchMode = PrefixMismatchMode.ERROR;
        private int deleteBatchSize = DEFAULT_DELETE_BATCH_SIZE;
        private boolean usePrefixListing = true;
        private final Map<String, String> equalSchemes =
                new HashMap<>(LocationPrefixes.DEFAULT_EQUAL_SCHEMES);
        private final Map<String, String> equalAuthorities = new HashMap<>();

        private Builder() {}

        /**
         * Files last modified less than this before a run are never deleted (default 3 days): they
         * may belong to a commit in progress. Keep it longer than any write takes.
         */
        public Builder minAge(Duration age) {
            if (age == null || age.isNegative()) {
                throw new IllegalArgumentException(
                        "minAge must be a duration of 0 or more, got " + age);
            }
            this.minAge = age;
            return this;
        }

        /** The location searched for orphans (default: the table location). */
        public Builder location(String newLocation) {
            if (newLocation == null || newLocation.isBlank()) {
                throw new IllegalArgumentException(
                        "location must be a non-blank location, got '" + newLocation + "'");
            }
            this.location = newLocation;
            return this;
        }

        /**
         * What to do with a listed file whose path the table references only under another scheme
         * or authority (default ERROR: keep it and fail the run naming it; IGNORE: keep it; DELETE:
         * delete it).
         */
        public Builder prefixMismatchMode(PrefixMismatchMode mode) {
            if (mode == null) {
                throw new IllegalArgumentException("prefixMismatchMode must not be null");
            }
            this.prefixMismatchMode = mode;
            return this;
        }

        /**
         * Schemes taken as one when comparing listed files with references: each key (one scheme or
         * several separated by commas) is taken to be its value. Added to the default, which takes
         * {@code s3a} and {@code s3n} as {@code s3}.
         */
        public Builder equalSchemes(Map<String, String> schemes) {
            equalSchemes.putAll(checked("equalSchemes", schemes));
            return this;
        }

        /**
         * Authorities taken as one when comparing listed files with references: each key (one
         * authority or several separated by commas) is taken to be its value.
         */
        public Builder equalAuthorities(Map<String, String> authorities) {
            equalAuthorities.putAll(checked("equalAuthorities", authorities));
            return this;
        }

        /** The number of files one reducer deletes in one request (default 1000). */
        public Builder deleteBatchSize(int files) {
            this.deleteBatchSize = positive("deleteBatchSize", files);
            return this;
        }

        /**
         * Whether whole directories are listed with the FileIO's prefix listing (default true);
         * when false, or when the FileIO cannot list by prefix, with the Hadoop FileSystem.
         */
        public Builder usePrefixListing(boolean prefixListing) {
            this.usePrefixListing = prefixListing;
            return this;
        }

        private static Map<String, String> checked(String setting, Map<String, String> map) {
            if (map == null) {
                throw new IllegalArgumentException(setting + " must not be null");
            }
            for (Map.Entry<String, String> entry : map.entrySet()) {
                if (entry.getKey() == null
                        || entry.getKey().isBlank()
                        || entry.getValue() == null
                        || entry.getValue().isBlank()) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "%s must map non-blank names to a non-blank name, got '%s' ->"
                                            + " '%s'",
                                    setting, entry.getKey(), entry.getValue()));
                }
            }
            return map;
        }

        @Override
        String taskName() {
            return "DeleteOrphanFiles";
        }

        @Override
        Steps steps(TableLoader loader) {
            if (minAge.compareTo(Duration.ofDays(1)) < 0) {
                LOG.warn(
                        "DeleteOrphanFiles with minAge {}: files of writes that take longer than"
                                + " that may be deleted before they are committed",
                        minAge);
            }
            return new Steps(
                    new OrphanPlanning(
                            loader.clone(), location, minAge.toMillis(), usePrefixListing),
                    new OrphanMapping(loader.clone()),
                    new OrphanJudging(
                            loader.clone(),
                            prefixMismatchMode,
                            new LocationPrefixes(equalSchemes, equalAuthorities),
                            deleteBatchSize),
                    new DeletionSummary(taskName()));
        }
    }
}
