package dev.icebergflink.table.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.connector.ChangelogMode;

/**
 * The changelog modes our table sink declares.
 *
 * <p>It exists because {@code ChangelogMode.upsert(boolean keyOnlyDeletes)} is Flink 2.x only;
 * Flink 1.20 has just {@code ChangelogMode.upsert()}, with no way to ask for deletes carrying full
 * rows.
 */
@Internal
public final class ChangelogModes {

    private ChangelogModes() {}

    /** Upsert (no {@code UPDATE_BEFORE}) with deletes that carry the full row. */
    public static ChangelogMode upsertWithFullDeletes() {
        return ChangelogMode.upsert(false);
    }
}
