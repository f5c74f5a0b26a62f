package dev.icebergflink.maintenance.task;

import org.apache.flink.annotation.Internal;

/** Turns a failure into the one-line text a {@link TaskResult} carries. */
@Internal
public final class TaskErrors {

    private static final int MAX_LENGTH = 2000;

    private TaskErrors() {}

    /** The failure's class and message, with the messages of its causes. */
    public static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null && text.length() < MAX_LENGTH; t = t.getCause()) {
            if (text.length() > 0) {
                text.append("; caused by ");
            }
            text.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                text.append(": ").append(t.getMessage());
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) : text.toString();
    }
}
