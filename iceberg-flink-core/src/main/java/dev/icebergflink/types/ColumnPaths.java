package dev.icebergflink.types;

/** Builds the dotted column paths ({@code address.zip}) that error messages name. */
final class ColumnPaths {

    private ColumnPaths() {}

    static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }
}
