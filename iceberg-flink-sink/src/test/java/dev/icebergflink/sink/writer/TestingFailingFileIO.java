package dev.icebergflink.sink.writer;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * Iceberg's {@link HadoopFileIO}, except that closing the N-th file written under a {@code /data/}
 * directory (data and delete files) fails, after the file was written and closed on disk: the way a
 * store reports a failed upload at the end of a file. Arm it with {@link #failClosingDataFile}
 * after the table exists; load it through a catalog's {@code io-impl}.
 */
public class TestingFailingFileIO extends HadoopFileIO {

    /** Closes of data-directory files still to succeed before one fails; negative: none fails. */
    private static final AtomicInteger CLOSES_BEFORE_FAILURE = new AtomicInteger(-1);

    /** The message of the injected failure. */
    static final String FAILURE = "injected failure closing a data directory file";

    public TestingFailingFileIO() {}

    /** Makes closing the {@code n}-th data-directory file from now on fail (1 = the next). */
    static void failClosingDataFile(int n) {
        CLOSES_BEFORE_FAILURE.set(n - 1);
    }

    /** Turns the injected failure off. */
    static void disarm() {
        CLOSES_BEFORE_FAILURE.set(-1);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        OutputFile file = super.newOutputFile(path);
        return path.contains("/data/") ? new FailingOutputFile(file) : file;
    }

    private record FailingOutputFile(OutputFile file) implements OutputFile {
        @Override
        public PositionOutputStream create() {
            return new FailingStream(file.create(), file.location());
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
            return new FailingStream(file.createOrOverwrite(), file.location());
        }

        @Override
        public String location() {
            return file.location();
        }

        @Override
        public InputFile toInputFile() {
            return file.toInputFile();
        }
    }

    private static final class FailingStream extends PositionOutputStream {
        private final PositionOutputStream out;
        private final String location;
        private boolean closed;

        private FailingStream(PositionOutputStream out, String location) {
            this.out = out;
            this.location = location;
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            out.close();
            if (CLOSES_BEFORE_FAILURE.getAndDecrement() == 0) {
                throw new IOException(FAILURE + ": " + location);
            }
        }
    }
}
