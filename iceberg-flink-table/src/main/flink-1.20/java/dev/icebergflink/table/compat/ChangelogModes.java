package dev.icebergflink.table.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.connector.ChangelogMode;

/**
 * The changelog modes our table sink declares.
 *
 * <p>It exists because {@code ChangelogMode.upsert(boolean keyOnlyDeletes)} is Flink 2.x only.
 * Flink 1.20 has just {@code ChangelogMode.upsert()}, which cannot ask the planner for deletes
 * carrying full rows: on 1.20 a delete may carry only its key (the other columns null).
 */
@Internal
public final class ChangelogModes {

    private ChangelogModes() {}

    /** Upsert (no {@code UPDATE_BEFORE}); on Flink 1.20 deletes may carry only the key. */
    public static ChangelogMode upsertWithFullDeletes() {
        return ChangelogMode.upsert();
    }
}
