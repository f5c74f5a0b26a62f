package dev.icebergflink.maintenance.orphan;

import org.apache.flink.annotation.Internal;

/**
 * One fact about a file that orphan detection brings together with the other facts about the same
 * path: the listing found it (old enough to be an orphan), or the table's metadata refers to it.
 *
 * @param referenced true when the metadata refers to the location, false when the listing found it
 * @param location the location as the listing or the metadata spells it
 */
@Internal
public record FileMark(boolean referenced, String location) {

    /** A file the listing found, older than the run's age threshold. */
    public static FileMark listed(String location) {
        return new FileMark(false, location);
    }

    /** A location the table's metadata refers to. */
    public static FileMark referenced(String location) {
        return new FileMark(true, location);
    }
}
