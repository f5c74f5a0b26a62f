package dev.icebergflink.e2e.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The main class of every process the end-to-end tests start (JobManager, TaskManager, CLI, SQL
 * client): it runs the real main class given as first argument, and halts the JVM as soon as its
 * standard input reaches end of file.
 *
 * <p>Why it exists: the test JVM keeps each child's standard input open and never writes to it. If
 * the test JVM dies (even by SIGKILL), the pipe closes and the child stops at once instead of
 * lingering as an orphan that holds ports, memory and CPU on a shared machine.
 */
public final class ParentWatchdog {

    private ParentWatchdog() {}

    /** {@code ParentWatchdog <main class> [args...]}. */
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            throw new IllegalArgumentException("Usage: ParentWatchdog <main class> [args...]");
        }
        Thread watchdog = new Thread(ParentWatchdog::haltOnEndOfInput, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void haltOnEndOfInput() {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // Nothing is ever written; keep reading until the parent closes the pipe.
            }
        } catch (IOException e) {
            // A broken pipe means the same: the parent is gone.
        }
        System.err.println("parent-watchdog: the test JVM is gone, halting");
        Runtime.getRuntime().halt(143);
    }
}
