package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of an {@link OrphanItem}, the work item orphan detection plans.
 *
 * <p>Version {@value #VERSION_1}: the kind (byte), the root (string), then by kind: {@value
 * #LISTING} listing: directory (string), deep (boolean), older-than millis (long), prefix listing
 * (boolean); {@value #REFERENCED} referenced: count (int) and each location (string); {@value
 * #MANIFESTS} manifests: count (int) and each manifest as length (int) and Iceberg's encoded bytes.
 * Strings are in core's length-prefixed form.
 */
@Internal
public final class OrphanItemSerializer implements SimpleVersionedSerializer<OrphanItem> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    static final byte LISTING = 1;
    static final byte REFERENCED = 2;
    static final byte MANIFESTS = 3;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(OrphanItem item) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        if (item instanceof OrphanItem.Listing listing) {
            out.writeByte(LISTING);
            LengthPrefixedStrings.write(listing.root(), out);
            LengthPrefixedStrings.write(listing.directory(), out);
            out.writeBoolean(listing.deep());
            out.writeLong(listing.olderThanMillis());
            out.writeBoolean(listing.prefixListing());
        } else if (item instanceof OrphanItem.Referenced referenced) {
            out.writeByte(REFERENCED);
            LengthPrefixedStrings.write(referenced.root(), out);
            out.writeInt(referenced.locations().size());
            for (String location : referenced.locations()) {
                LengthPrefixedStrings.write(location, out);
            }
        } else {
            OrphanItem.Manifests manifests = (OrphanItem.Manifests) item;
            out.writeByte(MANIFESTS);
            LengthPrefixedStrings.write(manifests.root(), out);
            out.writeInt(manifests.manifests().size());
            for (byte[] manifest : manifests.manifests()) {
                out.writeInt(manifest.length);
                out.write(manifest);
            }
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public OrphanItem deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown orphan item version " + version + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        byte kind = in.readByte();
        String root = LengthPrefixedStrings.read(in);
        OrphanItem item;
        switch (kind) {
            case LISTING:
                item =
                        new OrphanItem.Listing(
                                root,
                                LengthPrefixedStrings.read(in),
                                in.readBoolean(),
                                in.readLong(),
                                in.readBoolean());
                break;
            case REFERENCED:
                {
                    int count = count(in);
                    List<String> locations = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        locations.add(LengthPrefixedStrings.read(in));
                    }
                    item = new OrphanItem.Referenced(root, locations);
                    break;
                }
            case MANIFESTS:
                {
                    int count = count(in);
                    List<byte[]> manifests = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        int length = in.readInt();
                        if (length < 0 || length > in.available()) {
                            throw new IOException("Corrupt orphan item: manifest length " + length);
                        }
                        byte[] manifest = new byte[length];
                        in.readFully(manifest);
                        manifests.add(manifest);
                    }
                    item = new OrphanItem.Manifests(root, manifests);
                    break;
                }
            default:
                throw new IOException("Corrupt orphan item: unknown kind " + kind);
        }
        if (in.available() > 0) {
            throw new IOException("Corrupt orphan item: " + in.available() + " bytes left over");
        }
        return item;
    }

    private static int count(DataInputDeserializer in) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt orphan item: negative count " + count);
        }
        return count;
    }
}
