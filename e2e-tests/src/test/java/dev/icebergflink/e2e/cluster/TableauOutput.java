package dev.icebergflink.e2e.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of the SQL client's tableau output ({@code | a | b |} lines between {@code +---+}
 * borders), as lists of trimmed cell strings, header rows included.
 *
 * <p>Why it exists: end-to-end tests assert the printed values, not only that a script ran.
 */
public final class TableauOutput {

    private TableauOutput() {}

    /** Every {@code |}-delimited line of {@code output}, split into trimmed cells, in order. */
    public static List<List<String>> rows(String output) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : output.split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("|") && trimmed.endsWith("|") && trimmed.length() > 1) {
                String inner = trimmed.substring(1, trimmed.length() - 1);
                rows.add(Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList());
            }
        }
        return rows;
    }
}
