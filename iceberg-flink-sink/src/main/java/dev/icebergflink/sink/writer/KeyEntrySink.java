package dev.icebergflink.sink.writer;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Takes the key entries of {@link SupersededRows} in (key hash, key bytes, arrival) order: a run
 * file being written, or the grouping that finds superseded rows.
 *
 * <p>It exists so that the in-memory sort and the merge of spilled runs hand their entries on the
 * same way, whether to disk or to the grouping.
 */
interface KeyEntrySink {

    /**
     * Takes one entry: the key {@code bytes[start, start + length)} with its hash and the location
     * of the row its change wrote (negative for a retraction).
     */
    void accept(int hash, byte[] bytes, int start, int length, long location) throws IOException;

    /** Writes one run file, entry by entry, in the order given. */
    final class RunWriter implements KeyEntrySink, Closeable {
        private final DataOutputStream out;

        RunWriter(Path path, int bufferSize) throws IOException {
            this.out =
                    new DataOutputStream(
                            new BufferedOutputStream(Files.newOutputStream(path), bufferSize));
        }

        @Override
        public void accept(int hash, byte[] bytes, int start, int length, long location)
                throws IOException {
            out.writeInt(hash);
            out.writeInt(length);
            out.write(bytes, start, length);
            out.writeLong(location);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
