package dev.icebergflink.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A result printed as a text table with a border, numbers right-aligned and everything else
 * left-aligned, the way the SQL client prints results: the examples print what they read with it.
 */
public final class TextTable {

    private final List<String> header;
    private final List<Object[]> rows = new ArrayList<>();

    /** A table with these column names and no rows yet. */
    public TextTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    /** A table with these column names and no rows yet. */
    public static TextTable withColumns(String... header) {
        return new TextTable(Arrays.asList(header));
    }

    /**
     * Adds a row; {@code null} prints as {@code NULL}.
     *
     * @throws IllegalArgumentException when the row has not one value per column
     */
    public TextTable addRow(Object... values) {
        if (values.length != header.size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "A row of the table %s needs %d values but got %d: %s",
                            header, header.size(), values.length, Arrays.toString(values)));
        }
        rows.add(values.clone());
        return this;
    }

    /** The number of rows added. */
    public int rowCount() {
        return rows.size();
    }

    /** Prints the table, followed by the row count when {@code withCount}. */
    public void print(PrintStream out, boolean withCount) {
        int[] widths = new int[header.size()];
        for (int column = 0; column < widths.length; column++) {
            widths[column] = header.get(column).length();
            for (Object[] row : rows) {
                widths[column] = Math.max(widths[column], text(row[column]).length());
            }
        }
        StringBuilder border = new StringBuilder("+");
        for (int width : widths) {
            border.append("-".repeat(width + 2)).append('+');
        }
        out.println(border);
        out.println(line(header.toArray(), widths, false));
        out.println(border);
        for (Object[] row : rows) {
            out.println(line(row, widths, true));
        }
        out.println(border);
        if (withCount) {
            out.println(rows.size() + (rows.size() == 1 ? " row" : " rows"));
        }
    }

    private static String line(Object[] values, int[] widths, boolean alignNumbers) {
        StringBuilder line = new StringBuilder("|");
        for (int column = 0; column < widths.length; column++) {
            String text = text(values[column]);
            String padding = " ".repeat(widths[column] - text.length());
            boolean right = alignNumbers && values[column] instanceof Number;
            line.append(' ').append(right ? padding + text : text + padding).append(" |");
        }
        return line.toString();
    }

    private static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof java.math.BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return "0x" + java.util.HexFormat.of().formatHex(bytes);
        }
        return value.toString();
    }
}
