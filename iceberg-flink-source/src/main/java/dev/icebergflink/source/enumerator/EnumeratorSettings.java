package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SplitPageSource;
import org.apache.flink.annotation.Internal;

/**
 * What an enumerator is given besides its planning: the table it is pinned to, the exact limit,
 * paged scans and the resources it releases when it closes.
 *
 * <p>It exists so that enumerators receive these settings in their constructor and keep them fixed
 * for their life; start from {@link #none()} and add what applies.
 *
 * @param tableName names the table in messages, or {@code null}
 * @param restoredUuid the table UUID in the restored state, or {@code null}
 * @param loadedUuid the UUID of the table as loaded now, or {@code null}
 * @param limit the most rows the read emits in total; negative for no limit
 * @param pageSource produces the pages of paged scans, or {@code null} when scans are not paged
 * @param pageSize the most pending splits a paged scan fills the pool up to (at least 1 with a page
 *     source)
 * @param restoredCursor the paged scan of a restored state, or {@code null}
 * @param resources released when the enumerator closes (table loader, planning pool), or {@code
 *     null}
 */
@Internal
public record EnumeratorSettings(
        Object tableName,
        String restoredUuid,
        String loadedUuid,
        long limit,
        SplitPageSource pageSource,
        int pageSize,
        ScanCursor restoredCursor,
        AutoCloseable resources) {

    public EnumeratorSettings {
        if (pageSource != null && pageSize < 1) {
            throw new IllegalArgumentException("A page holds at least 1 split, got " + pageSize);
        }
    }

    /** No pinned table, no limit, no paging, nothing to release. */
    public static EnumeratorSettings none() {
        return new EnumeratorSettings(null, null, null, -1, null, 0, null, null);
    }

    /**
     * Pins the table the read belongs to: the UUID of the restored state, or the loaded table's
     * when the state has none (a fresh start, or a state written before the UUID was kept).
     */
    public EnumeratorSettings pinnedTo(Object table, String restored, String loaded) {
        return new EnumeratorSettings(
                table, restored, loaded, limit, pageSource, pageSize, restoredCursor, resources);
    }

    /** Stops the read after {@code rows} rows in total; negative for no limit. */
    public EnumeratorSettings limitedTo(long rows) {
        return new EnumeratorSettings(
                tableName,
                restoredUuid,
                loadedUuid,
                rows,
                pageSource,
                pageSize,
                restoredCursor,
                resources);
    }

    /** Lets planning rounds hand over full scans as cursors, paged by {@code source}. */
    public EnumeratorSettings pagedBy(SplitPageSource source, int maxPending, ScanCursor restored) {
        return new EnumeratorSettings(
                tableName,
                restoredUuid,
                loadedUuid,
                limit,
                source,
                maxPending,
                restored,
                resources);
    }

    /** Releases {@code resource} when the enumerator closes. */
    public EnumeratorSettings closing(AutoCloseable resource) {
        return new EnumeratorSettings(
                tableName,
                restoredUuid,
                loadedUuid,
                limit,
                pageSource,
                pageSize,
                restoredCursor,
                resource);
    }
}
