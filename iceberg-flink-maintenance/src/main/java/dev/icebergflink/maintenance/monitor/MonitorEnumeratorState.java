package dev.icebergflink.maintenance.monitor;

import org.apache.flink.annotation.Internal;

/**
 * The enumerator's checkpoint: the split while no reader holds it (before the first assignment, or
 * after the reader failed and gave it back).
 *
 * @param unassigned the split to assign, or null when a reader holds it
 */
@Internal
public record MonitorEnumeratorState(MonitorSplit unassigned) {}
