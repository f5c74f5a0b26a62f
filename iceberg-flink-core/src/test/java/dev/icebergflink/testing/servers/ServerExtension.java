package dev.icebergflink.testing.servers;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The JUnit 5 life cycle every real-server fixture shares, so each fixture only says how to start
 * and stop its server: registered as a {@code static} field one server runs for the whole test
 * class; as an instance field, one per test. It can also be driven by hand with {@link #start()}
 * and {@link #close()}, which are idempotent.
 */
public abstract class ServerExtension
        implements BeforeAllCallback,
                AfterAllCallback,
                BeforeEachCallback,
                AfterEachCallback,
                AutoCloseable {

    private boolean running;
    private boolean startedForClass;

    /** Starts the server; a no-op when it is running. */
    public final synchronized void start() throws Exception {
        if (running) {
            return;
        }
        doStart();
        running = true;
    }

    /** Stops exactly what {@link #start()} started and deletes its files; a no-op when stopped. */
    @Override
    public final synchronized void close() throws Exception {
        if (!running) {
            return;
        }
        running = false;
        doStop();
    }

    /** Whether the server is up. */
    public final synchronized boolean isRunning() {
        return running;
    }

    /** Starts the server; on failure it must clean up what it started and name the cause. */
    protected abstract void doStart() throws Exception;

    /** Stops the server and removes its files. */
    protected abstract void doStop() throws Exception;

    /** A short name for error messages, e.g. "HDFS". */
    protected abstract String serverName();

    /** Throws a clear error when a getter is called on a fixture that is not running. */
    protected final void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException(
                    "The "
                            + serverName()
                            + " fixture is not running: register it with @RegisterExtension or"
                            + " call start()");
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
        startedForClass = true;
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        startedForClass = false;
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!startedForClass) {
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (!startedForClass) {
            close();
        }
    }
}
