package dev.icebergflink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.sink.committer.CommitMode;
import dev.icebergflink.sink.distribution.ChangelogDeduplicator;
import dev.icebergflink.sink.writer.WriterMode;
import org.junit.jupiter.api.Test;

class WriteModesTest {

    private static WriteModes decide(
            boolean overwrite,
            boolean staticPartition,
            boolean insertOnly,
            boolean upsert,
            boolean uniqueKeys,
            int formatVersion,
            boolean equalityFields) {
        return WriteModes.decide(
                overwrite,
                staticPartition,
                insertOnly,
                upsert,
                uniqueKeys,
                formatVersion,
                equalityFields);
    }

    @Test
    void overwriteAppendsDataAndReplacesPartitions() {
        assertThat(decide(true, true, false, false, false, 2, true))
                .isEqualTo(new WriteModes(WriterMode.APPEND, CommitMode.STATIC_OVERWRITE, null));
        assertThat(decide(true, false, false, false, false, 2, true))
                .isEqualTo(new WriteModes(WriterMode.APPEND, CommitMode.DYNAMIC_OVERWRITE, null));
        assertThat(decide(true, false, true, false, false, 1, false))
                .isEqualTo(
                        new WriteModes(WriterMode.INSERT_ONLY, CommitMode.DYNAMIC_OVERWRITE, null));
    }

    @Test
    void insertOnlyInputTakesThePlainAppendPathWhateverTheTable() {
        assertThat(decide(false, false, true, false, false, 2, true))
                .isEqualTo(new WriteModes(WriterMode.INSERT_ONLY, CommitMode.APPEND, null));
    }

    @Test
    void upsertDeduplicatesUnlessKeysArePromisedUnique() {
        assertThat(decide(false, false, false, true, false, 2, true))
                .isEqualTo(
                        new WriteModes(
                                WriterMode.UPSERT,
                                CommitMode.ROW_DELTA,
                                ChangelogDeduplicator.Mode.UPSERT));
        assertThat(decide(false, false, false, true, true, 2, true))
                .isEqualTo(new WriteModes(WriterMode.UPSERT, CommitMode.ROW_DELTA, null));
    }

    @Test
    void formatV2TablesTakeChangelogsAndV1TablesAppends() {
        assertThat(decide(false, false, false, false, false, 2, true))
                .isEqualTo(
                        new WriteModes(
                                WriterMode.CHANGELOG,
                                CommitMode.ROW_DELTA,
                                ChangelogDeduplicator.Mode.CHANGELOG));
        assertThat(decide(false, false, false, false, false, 3, false))
                .isEqualTo(new WriteModes(WriterMode.CHANGELOG, CommitMode.ROW_DELTA, null));
        assertThat(decide(false, false, false, false, false, 1, true))
                .isEqualTo(new WriteModes(WriterMode.APPEND, CommitMode.APPEND, null));
    }
}
