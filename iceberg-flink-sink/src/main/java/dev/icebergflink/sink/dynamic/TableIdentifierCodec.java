package dev.icebergflink.sink.dynamic;

import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Writes and reads table identifiers and optional names in the dynamic sink's serialized forms.
 *
 * <p>It exists so that every format of the dynamic sink (records in flight, writer results,
 * committables) names a table the same way: an int count of namespace levels, each level and then
 * the table name as length-prefixed UTF-8. Levels are kept apart instead of joined with dots, since
 * a level may itself contain a dot.
 */
@Internal
final class TableIdentifierCodec {

    private TableIdentifierCodec() {}

    static void write(TableIdentifier table, DataOutputView out) throws IOException {
        String[] levels = table.namespace().levels();
        out.writeInt(levels.length);
        for (String level : levels) {
            LengthPrefixedStrings.write(level, out);
        }
        LengthPrefixedStrings.write(table.name(), out);
    }

    static TableIdentifier read(DataInputView in) throws IOException {
        int levelCount = in.readInt();
        if (levelCount < 0) {
            throw new IOException("Corrupt table identifier: " + levelCount + " namespace levels");
        }
        String[] levels = new String[levelCount];
        for (int i = 0; i < levelCount; i++) {
            levels[i] = LengthPrefixedStrings.read(in);
        }
        return TableIdentifier.of(Namespace.of(levels), LengthPrefixedStrings.read(in));
    }

    /** A presence byte and, when present, the value. */
    static void writeNullable(String value, DataOutputView out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            LengthPrefixedStrings.write(value, out);
        }
    }

    static String readNullable(DataInputView in) throws IOException {
        return in.readBoolean() ? LengthPrefixedStrings.read(in) : null;
    }
}
