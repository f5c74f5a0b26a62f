package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.cleanup.DeleteFilesWork;
import dev.icebergflink.maintenance.cleanup.DeletionCountSerializer;
import dev.icebergflink.maintenance.cleanup.FileLocations;
import dev.icebergflink.maintenance.task.TaskReducer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.actions.DeleteOrphanFiles.PrefixMismatchMode;
import org.apache.iceberg.io.FileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reducers of streaming orphan deletion: in one bucket of a run, a file the listing found and
 * nothing refers to is an orphan, and is deleted in batches with the table's FileIO; the result is
 * the bucket's {@link DeletionCountSerializer.Count}.
 *
 * <p>A listed file whose path is referenced only under another scheme or authority (see {@link
 * LocationPrefixes}) is a prefix mismatch, handled by the {@link PrefixMismatchMode}: ERROR keeps
 * it and fails the bucket, and so the run, naming the files, before the bucket deletes anything
 * (other buckets still delete their orphans, which are orphans whichever spelling is right); IGNORE
 * keeps it; DELETE deletes it as an orphan.
 */
@Internal
public final class OrphanJudging implements TaskReducer {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OrphanJudging.class);

    /** How many mismatches an error names. */
    static final int NAMED_MISMATCHES = 5;

    private final TableLoader loader;
    private final PrefixMismatchMode mismatchMode;
    private final LocationPrefixes prefixes;
    private final int deleteBatchSize;

    private transient FileIO io;

    /**
     * @param loader the table, whose FileIO deletes
     * @param mismatchMode what to do with a listed file referenced under another prefix
     * @param prefixes which schemes and authorities are taken as one
     * @param deleteBatchSize files per deletion request
     */
    public OrphanJudging(
            TableLoader loader,
            PrefixMismatchMode mismatchMode,
            LocationPrefixes prefixes,
            int deleteBatchSize) {
        this.loader = loader;
        this.mismatchMode = mismatchMode;
        this.prefixes = prefixes;
        this.deleteBatchSize = deleteBatchSize;
    }

    @Override
    public void open(int subtask, int attempt) {
        loader.open();
    }

    @Override
    public byte[] reduce(Iterable<byte[]> records) throws Exception {
        Map<String, Path> paths = new HashMap<>();
        FileMarkSerializer serializer = new FileMarkSerializer();
        for (byte[] record : records) {
            FileMark mark =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, record);
            Path path = paths.computeIfAbsent(FileLocations.key(mark.location()), k -> new Path());
            if (mark.referenced()) {
                path.referTo(mark.location());
            } else {
                path.listed = mark.location();
            }
        }

        List<String> orphans = new ArrayList<>();
        List<String> mismatches = new ArrayList<>();
        int mismatchCount = 0;
        for (Path path : paths.values()) {
            if (path.listed == null) {
                continue;
            }
            String mismatch = path.mismatch(prefixes);
            if (path.references.isEmpty()) {
                orphans.add(path.listed);
            } else if (mismatch != null) {
                mismatchCount++;
                if (mismatchMode == PrefixMismatchMode.DELETE) {
                    orphans.add(path.listed);
                } else if (mismatches.size() < NAMED_MISMATCHES) {
                    mismatches.add(path.listed + " (referenced as " + mismatch + ")");
                }
            }
        }
        paths.clear();
        if (mismatchCount > 0 && mismatchMode == PrefixMismatchMode.ERROR) {
            throw new IllegalStateException(
                    String.format(
                            "Found %d files whose path is referenced by the table only under"
                                    + " another scheme or authority, e.g. %s. They are kept. If"
                                    + " the spellings name the same files, declare them equal"
                                    + " with equalSchemes or equalAuthorities; else set"
                                    + " prefixMismatchMode to IGNORE (keep such files) or DELETE"
                                    + " (delete them)",
                            mismatchCount, String.join(", ", mismatches)));
        }
        if (mismatchCount > 0) {
            LOG.info(
                    "{} listed files are referenced under another scheme or authority; {} them",
                    mismatchCount,
                    mismatchMode == PrefixMismatchMode.DELETE ? "deleting" : "keeping");
        }
        return SimpleVersionedSerialization.writeVersionAndSerialize(
                new DeletionCountSerializer(), delete(orphans));
    }

    private DeletionCountSerializer.Count delete(List<String> orphans) {
        long deleted = 0;
        long failed = 0;
        if (!orphans.isEmpty() && io == null) {
            io = loader.loadTable().io();
        }
        for (int from = 0; from < orphans.size(); from += deleteBatchSize) {
            List<String> batch =
                    orphans.subList(from, Math.min(orphans.size(), from + deleteBatchSize));
            LOG.info("Deleting {} orphan files, e.g. {}", batch.size(), batch.get(0));
            DeletionCountSerializer.Count count = DeleteFilesWork.delete(io, batch);
            deleted += count.deleted();
            failed += count.failed();
        }
        return new DeletionCountSerializer.Count(deleted, failed);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }

    /** What one bucket knows of one path: the listed file and how the metadata spells it. */
    private static final class Path {
        private String listed;
        private final List<String> references = new ArrayList<>(1);

        void referTo(String location) {
            if (!references.contains(location)) {
                references.add(location);
            }
        }

        /** Null when some reference is the listed file; else one of the other spellings. */
        String mismatch(LocationPrefixes prefixes) {
            for (String reference : references) {
                if (prefixes.sameFile(listed, reference)) {
                    return null;
                }
            }
            return references.isEmpty() ? null : references.get(0);
        }
    }
}
