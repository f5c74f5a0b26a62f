package dev.icebergflink.tasks.changelog;

import org.apache.flink.annotation.Internal;

/**
 * What a {@link ChangeFileScanTask} holds: rows a snapshot added, or rows it removed (by removing
 * their whole data file, or by new delete files against a data file that stays).
 *
 * <p>The codes are part of the serialized split format: never renumber them.
 */
@Internal
public enum ChangeType {
    /** Rows of a data file the snapshot added, less the rows its own deletes removed again. */
    ADDED_ROWS((byte) 1),

    /** Rows of a data file the snapshot removed that were live before it. */
    DELETED_FILE((byte) 2),

    /** Rows of a remaining data file that were live before the snapshot and its deletes delete. */
    DELETED_ROWS((byte) 3);

    private final byte code;

    ChangeType(byte code) {
        this.code = code;
    }

    /** The code of this type in serialized state. */
    public byte code() {
        return code;
    }

    /** Whether the rows of such a task left the table (as opposed to entering it). */
    public boolean removesRows() {
        return this != ADDED_ROWS;
    }

    /**
     * The type of a serialized code.
     *
     * @throws IllegalArgumentException for a code no release wrote
     */
    public static ChangeType ofCode(byte code) {
        for (ChangeType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown change type code " + code);
    }
}
