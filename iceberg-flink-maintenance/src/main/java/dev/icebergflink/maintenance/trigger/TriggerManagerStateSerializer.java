package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TableChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link TriggerManagerState}, the trigger manager's checkpointed state.
 *
 * <p>Version {@value #VERSION_1}: last trigger millis (long), last trigger timestamp (long),
 * in-flight task (int, -1 for none), in-flight timestamp (long), task count (int), then per task:
 * last run millis (long), and the changes since: data files (int), data bytes (long), position
 * delete files (int), position deletes (long), equality delete files (int), equality deletes
 * (long), commits (int).
 */
@Internal
public final class TriggerManagerStateSerializer
        implements SimpleVersionedSerializer<TriggerManagerState> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(TriggerManagerState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        out.writeLong(state.lastTriggerMillis());
        out.writeLong(state.lastTriggerTimestamp());
        out.writeInt(state.inFlightTask());
        out.writeLong(state.inFlightTimestamp());
        out.writeInt(state.taskCount());
        for (int i = 0; i < state.taskCount(); i++) {
            out.writeLong(state.lastRunMillis(i));
            TableChange change = state.changes(i);
            out.writeInt(change.dataFileCount());
            out.writeLong(change.dataFileSizeInBytes());
            out.writeInt(change.posDeleteFileCount());
            out.writeLong(change.posDeleteRecordCount());
            out.writeInt(change.eqDeleteFileCount());
            out.writeLong(change.eqDeleteRecordCount());
            out.writeInt(change.commitCount());
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public TriggerManagerState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown trigger manager state version "
                            + version
                            + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long lastTriggerMillis = in.readLong();
        long lastTriggerTimestamp = in.readLong();
        int inFlightTask = in.readInt();
        long inFlightTimestamp = in.readLong();
        int tasks = in.readInt();
        if (tasks < 0) {
            throw new IOException("Corrupt trigger manager state: negative task count " + tasks);
        }
        List<TableChange> changes = new ArrayList<>(tasks);
        List<Long> lastRuns = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            lastRuns.add(in.readLong());
            changes.add(
                    TableChange.builder()
                            .dataFileCount(in.readInt())
                            .dataFileSizeInBytes(in.readLong())
                            .posDeleteFileCount(in.readInt())
                            .posDeleteRecordCount(in.readLong())
                            .eqDeleteFileCount(in.readInt())
                            .eqDeleteRecordCount(in.readLong())
                            .commitCount(in.readInt())
                            .build());
        }
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt trigger manager state: " + in.available() + " bytes left over");
        }
        return new TriggerManagerState(
                changes,
                lastRuns,
                lastTriggerMillis,
                lastTriggerTimestamp,
                inFlightTask,
                inFlightTimestamp);
    }
}
