package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.tasks.codec.FileScanTaskCodec;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.CombinedScanTask;

/**
 * Versioned serializer of one work unit of a rewrite (the file ranges one task reads, with their
 * delete files), for the way from the job's input to the rewrite tasks.
 *
 * <p>It exists so that the job ships no Java-serialized Iceberg scan tasks: a unit travels as bytes
 * of core's {@link FileScanTaskCodec}, whose schemas and specs are ids looked up in the table the
 * tasks carry. Units live only within one batch job (never in a checkpoint or savepoint), but they
 * are still versioned, so that a mismatch fails loudly instead of misreading bytes.
 *
 * <p>Version {@value #VERSION_1}: the unit's file tasks in the layout of {@link
 * FileScanTaskCodec#writeTasks}.
 */
@Internal
public final class RewriteUnitSerializer implements SimpleVersionedSerializer<CombinedScanTask> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    private final FileScanTaskCodec tasks;

    /** A serializer that looks schemas and specs up in {@code metadata}. */
    public RewriteUnitSerializer(TableMetadataLookup metadata) {
        this.tasks = new FileScanTaskCodec(metadata);
    }

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(CombinedScanTask unit) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        tasks.writeTasks(unit.files(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public CombinedScanTask deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown rewrite unit version " + version + "; this job reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        CombinedScanTask unit = new BaseCombinedScanTask(tasks.readTasks(in));
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt rewrite unit: " + in.available() + " bytes left after the unit");
        }
        return unit;
    }
}
