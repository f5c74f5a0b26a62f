package dev.icebergflink.table.dml;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A row-level statement failed because the table changed, since the snapshot the statement read, in
 * a way that conflicts with its changes (rows it deletes or updates were deleted, rewritten or,
 * under serializable isolation, matching rows were added). The statement changed nothing; running
 * it again reads the new state.
 */
@PublicEvolving
public final class DmlConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DmlConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
