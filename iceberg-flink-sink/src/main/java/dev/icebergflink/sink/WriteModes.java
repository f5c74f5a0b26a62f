package dev.icebergflink.sink;

import dev.icebergflink.sink.committer.CommitMode;
import dev.icebergflink.sink.distribution.ChangelogDeduplicator;
import dev.icebergflink.sink.writer.WriterMode;
import org.apache.flink.annotation.Internal;

/**
 * The writer, the commit and the de-duplication one sink uses, decided from the requested modes and
 * the table.
 *
 * <p>It exists so that the decision is one table that reads top to bottom (the first row that
 * matches wins), instead of branches spread over the builder:
 *
 * <pre>
 *   request                        writer        commit             de-duplication
 *   overwrite + static partition   APPEND (1)    STATIC_OVERWRITE   none
 *   overwrite                      APPEND (1)    DYNAMIC_OVERWRITE  none
 *   insert-only input              INSERT_ONLY   APPEND             none
 *   upsert                         UPSERT        ROW_DELTA          UPSERT (none with unique keys)
 *   format v2+ table               CHANGELOG     ROW_DELTA          CHANGELOG (with equality fields)
 *   format v1 table                APPEND        APPEND             none
 *   (1) INSERT_ONLY when the input is declared insert-only
 * </pre>
 *
 * <p>The combinations {@link WriteModeRules#checkModes} rejects never reach the table.
 *
 * @param writer how the writers write rows
 * @param commit how the committer commits a checkpoint
 * @param dedup the keyed de-duplication before the writers, or null for none
 */
@Internal
public record WriteModes(WriterMode writer, CommitMode commit, ChangelogDeduplicator.Mode dedup) {

    /**
     * Decides the modes.
     *
     * @param overwrite whether overwrite mode is on
     * @param staticPartition whether a static partition is overwritten
     * @param insertOnly whether the input is declared insert-only
     * @param upsert whether upsert mode is on
     * @param upsertUniqueKeys whether upsert input promises one change per key
     * @param formatVersion the table's format version
     * @param hasEqualityFields whether there are equality fields (given or identifier fields)
     */
    public static WriteModes decide(
            boolean overwrite,
            boolean staticPartition,
            boolean insertOnly,
            boolean upsert,
            boolean upsertUniqueKeys,
            int formatVersion,
            boolean hasEqualityFields) {
        if (overwrite) {
            return new WriteModes(
                    insertOnly ? WriterMode.INSERT_ONLY : WriterMode.APPEND,
                    staticPartition ? CommitMode.STATIC_OVERWRITE : CommitMode.DYNAMIC_OVERWRITE,
                    null);
        }
        if (insertOnly) {
            return new WriteModes(WriterMode.INSERT_ONLY, CommitMode.APPEND, null);
        }
        if (upsert) {
            // with the user's promise of unique keys there is nothing to de-duplicate
            return new WriteModes(
                    WriterMode.UPSERT,
                    CommitMode.ROW_DELTA,
                    upsertUniqueKeys ? null : ChangelogDeduplicator.Mode.UPSERT);
        }
        if (formatVersion >= 2) {
            return new WriteModes(
                    WriterMode.CHANGELOG,
                    CommitMode.ROW_DELTA,
                    hasEqualityFields ? ChangelogDeduplicator.Mode.CHANGELOG : null);
        }
        return new WriteModes(WriterMode.APPEND, CommitMode.APPEND, null);
    }
}
