package dev.icebergflink.table.dml;

import org.apache.flink.annotation.Internal;

/** The row-level statement a {@link DmlPlan} runs; its name is the SQL keyword. */
@Internal
public enum DmlOperation {
    /** {@code DELETE FROM t WHERE ...}: the matching rows are removed. */
    DELETE,
    /**
     * {@code UPDATE t SET ... WHERE ...}: the matching rows are removed and re-inserted changed.
     */
    UPDATE
}
