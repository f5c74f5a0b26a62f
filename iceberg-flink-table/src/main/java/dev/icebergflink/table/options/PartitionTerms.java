package dev.icebergflink.table.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.TableDistribution;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * The partitioning of an Iceberg table in SQL words: the {@code partitioning} table option ({@code
 * 'days(ts), bucket(16, id), truncate(4, s), category'}), {@code PARTITIONED BY} identity keys and
 * {@code DISTRIBUTED BY HASH(c) INTO N BUCKETS}, read into a partition spec and a spec written back
 * as the option.
 *
 * <p>It exists because Flink's DDL knows only identity partitioning, while Iceberg partitions by
 * transforms of columns (hidden partitioning). The option carries any spec through {@code CREATE
 * TABLE}, {@code ALTER TABLE ... SET}, {@code SHOW CREATE TABLE} and {@code CREATE TABLE ... LIKE};
 * it is the spec, never a stored table property. Every rule about a term (known transform, argument
 * count, existing column of a type the transform takes, positive width or bucket count) is checked
 * here, so that {@code CREATE TABLE}, connector tables created on first use and {@code ALTER TABLE}
 * fail alike, naming the term.
 */
@Internal
public final class PartitionTerms {

    /** The key of the option, a constant for {@code switch} statements over option keys. */
    public static final String KEY = "partitioning";

    public static final ConfigOption<String> PARTITIONING =
            ConfigOptions.key(KEY)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The partition spec of an Iceberg table (hidden partitioning), as a"
                                    + " comma-separated list of terms: a column name (identity),"
                                    + " years(c), months(c), days(c), hours(c), bucket(N, c) or"
                                    + " truncate(W, c); e.g. 'days(ts), bucket(16, id)'. Set it in"
                                    + " CREATE TABLE (not together with PARTITIONED BY) or with"
                                    + " ALTER TABLE ... SET to evolve the spec (existing files keep"
                                    + " theirs; an empty value removes the partitioning). It is the"
                                    + " spec, not a stored table property: SHOW CREATE TABLE shows"
                                    + " it for every spec that is not identity partitioning of"
                                    + " top-level columns, which shows as PARTITIONED BY.");

    private static final Pattern FUNCTION =
            Pattern.compile("([A-Za-z_]+)\\s*\\((.*)\\)", Pattern.DOTALL);
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
    private static final String FORMS =
            "a column name, years(c), months(c), days(c), hours(c), bucket(N, c), truncate(W, c)";

    /** One term: a transform of a column. */
    public record Term(Transform transform, String column, int argument) {

        /** The term as the option writes it, e.g. {@code bucket(16, id)}. */
        @Override
        public String toString() {
            String name = quote(column);
            return switch (transform) {
                case IDENTITY -> name;
                case BUCKET, TRUNCATE -> transform.sqlName + "(" + argument + ", " + name + ")";
                default -> transform.sqlName + "(" + name + ")";
            };
        }

        /** The term as Iceberg's spec updates take it. */
        public org.apache.iceberg.expressions.Term toIcebergTerm() {
            return switch (transform) {
                case IDENTITY -> Expressions.ref(column);
                case YEARS -> Expressions.year(column);
                case MONTHS -> Expressions.month(column);
                case DAYS -> Expressions.day(column);
                case HOURS -> Expressions.hour(column);
                case BUCKET -> Expressions.bucket(column, argument);
                case TRUNCATE -> Expressions.truncate(column, argument);
            };
        }

        private void addTo(PartitionSpec.Builder builder) {
            switch (transform) {
                case IDENTITY -> builder.identity(column);
                case YEARS -> builder.year(column);
                case MONTHS -> builder.month(column);
                case DAYS -> builder.day(column);
                case HOURS -> builder.hour(column);
                case BUCKET -> builder.bucket(column, argument);
                case TRUNCATE -> builder.truncate(column, argument);
            }
        }
    }

    /** The transforms a term may name, with their SQL and Iceberg names. */
    public enum Transform {
        IDENTITY("identity", "identity", false),
        YEARS("years", "year", false),
        MONTHS("months", "month", false),
        DAYS("days", "day", false),
        HOURS("hours", "hour", false),
        BUCKET("bucket", "bucket", true),
        TRUNCATE("truncate", "truncate", true);

        private final String sqlName;
        private final String icebergName;
        private final boolean takesArgument;

        Transform(String sqlName, String icebergName, boolean takesArgument) {
            this.sqlName = sqlName;
            this.icebergName = icebergName;
            this.takesArgument = takesArgument;
        }
    }

    private PartitionTerms() {}

    /**
     * The terms of a {@code partitioning} value; none for a blank value (unpartitioned).
     *
     * @param what the statement and table, e.g. {@code "Cannot create 'cat.db.t'"}
     * @throws ValidationException naming the term that is not one of the allowed forms
     */
    public static List<Term> parse(String what, String value) {
        List<Term> terms = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return terms;
        }
        for (String text : splitTopLevel(value)) {
            terms.add(parseTerm(what, text.trim()));
        }
        return terms;
    }

    /**
     * The partition spec of a new table.
     *
     * @param what the statement and table, for messages
     * @param schema the table's schema
     * @param partitionKeys the {@code PARTITIONED BY} columns (identity)
     * @param partitioning the {@code partitioning} option, or {@code null}
     * @param distribution the {@code DISTRIBUTED BY} clause, if any: {@code bucket(N, c)} after the
     *     other fields
     * @throws ValidationException naming the term, key or clause Iceberg cannot partition by
     */
    public static PartitionSpec spec(
            String what,
            Schema schema,
            List<String> partitionKeys,
            String partitioning,
            Optional<TableDistribution> distribution) {
        if (partitioning != null && !partitionKeys.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "%s: PARTITIONED BY %s and option '%s'='%s' both set the partitioning;"
                                    + " use one of them (the option also takes transforms, e.g."
                                    + " 'days(ts), %s')",
                            what,
                            partitionKeys,
                            PARTITIONING.key(),
                            partitioning,
                            String.join(", ", partitionKeys)));
        }
        List<Term> terms = new ArrayList<>();
        for (String key : partitionKeys) {
            terms.add(identityKey(what, schema, key));
        }
        terms.addAll(parse(what, partitioning));
        distribution.ifPresent(clause -> terms.add(bucketOf(what, clause)));
        return build(what, schema, terms);
    }

    /**
     * The spec of {@code terms} over {@code schema}.
     *
     * @throws ValidationException naming the first term Iceberg rejects (a missing column, a type
     *     the transform does not take, the same term twice)
     */
    public static PartitionSpec build(String what, Schema schema, List<Term> terms) {
        PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
        for (Term term : terms) {
            Types.NestedField field = schema.findField(term.column());
            if (field == null) {
                throw new ValidationException(
                        String.format(
                                "%s: partition term '%s' names the column '%s', which does not"
                                        + " exist; the columns are %s",
                                what,
                                term,
                                term.column(),
                                schema.columns().stream()
                                        .map(Types.NestedField::name)
                                        .collect(Collectors.toList())));
            }
            try {
                // alone first, so that a type the transform does not take names this term
                PartitionSpec.Builder alone = PartitionSpec.builderFor(schema);
                term.addTo(alone);
                alone.build();
                term.addTo(builder);
            } catch (IllegalArgumentException
                    | org.apache.iceberg.exceptions.ValidationException e) {
                throw new ValidationException(
                        String.format(
                                "%s: invalid partition term '%s' (column '%s' of type %s): %s",
                                what, term, term.column(), field.type(), e.getMessage()),
                        e);
            }
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
            throw new ValidationException(
                    String.format("%s: invalid partitioning %s: %s", what, terms, e.getMessage()),
                    e);
        }
    }

    /**
     * The {@code partitioning} value of {@code spec}, or empty when identity keys show it: every
     * field is an identity (or void) transform of a top-level column.
     */
    public static Optional<String> render(PartitionSpec spec, Schema schema) {
        if (identityKeys(spec, schema).isPresent()) {
            return Optional.empty();
        }
        List<String> terms = new ArrayList<>();
        for (PartitionField field : spec.fields()) {
            if (field.transform().isVoid()) {
                continue;
            }
            terms.add(termOf(field, schema));
        }
        return Optional.of(String.join(", ", terms));
    }

    /**
     * The {@code PARTITIONED BY} keys of a spec: the source columns of its identity fields when
     * every field is an identity (or void) transform of a top-level column, else empty.
     */
    public static Optional<List<String>> identityKeys(PartitionSpec spec, Schema schema) {
        List<String> keys = new ArrayList<>();
        for (PartitionField field : spec.fields()) {
            if (field.transform().isVoid()) {
                continue;
            }
            if (!field.transform().isIdentity() || !isTopLevel(schema, field.sourceId())) {
                return Optional.empty();
            }
            keys.add(schema.findColumnName(field.sourceId()));
        }
        return Optional.of(keys);
    }

    /** Whether {@code field} is the partition field {@code term} makes from {@code schema}. */
    public static boolean matches(PartitionField field, Term term, Schema schema) {
        Types.NestedField source = schema.findField(term.column());
        return source != null
                && source.fieldId() == field.sourceId()
                && termOf(field, schema).equals(term.toString());
    }

    private static String termOf(PartitionField field, Schema schema) {
        String column = schema.findColumnName(field.sourceId());
        String transform = field.transform().toString();
        for (Transform candidate : Transform.values()) {
            if (candidate.takesArgument && transform.startsWith(candidate.icebergName + "[")) {
                int argument =
                        Integer.parseInt(
                                transform.substring(
                                        candidate.icebergName.length() + 1,
                                        transform.length() - 1));
                return new Term(candidate, column, argument).toString();
            }
            if (!candidate.takesArgument && transform.equals(candidate.icebergName)) {
                return new Term(candidate, column, 0).toString();
            }
        }
        // A transform this version does not name (from a newer Iceberg): shown as Iceberg names it.
        return transform + "(" + quote(column) + ")";
    }

    private static Term identityKey(String what, Schema schema, String key) {
        Types.NestedField field = schema.findField(key);
        if (field == null || !isTopLevel(schema, field.fieldId())) {
            throw new ValidationException(
                    String.format("%s: partition key '%s' is not a top-level column", what, key));
        }
        if (!field.type().isPrimitiveType()) {
            throw new ValidationException(
                    String.format(
                            "%s: partition key '%s' has the nested type %s; partition by a column"
                                    + " of a primitive type",
                            what, key, field.type()));
        }
        return new Term(Transform.IDENTITY, key, 0);
    }

    private static Term bucketOf(String what, TableDistribution distribution) {
        String works =
                "Iceberg tables take DISTRIBUTED BY HASH(c) INTO N BUCKETS (or DISTRIBUTED BY (c)"
                        + " INTO N BUCKETS) of one column, which becomes the partition field"
                        + " bucket(N, c); use the 'partitioning' option for more bucket fields";
        if (distribution.getKind() == TableDistribution.Kind.RANGE) {
            throw new ValidationException(
                    String.format("%s: DISTRIBUTED BY RANGE is not supported. %s", what, works));
        }
        if (distribution.getBucketKeys().size() != 1) {
            throw new ValidationException(
                    String.format(
                            "%s: DISTRIBUTED BY names %s bucket columns %s. %s",
                            what,
                            distribution.getBucketKeys().isEmpty()
                                    ? "no"
                                    : String.valueOf(distribution.getBucketKeys().size()),
                            distribution.getBucketKeys(),
                            works));
        }
        int count = distribution.getBucketCount().orElse(0);
        if (count <= 0) {
            throw new ValidationException(
                    String.format(
                            "%s: DISTRIBUTED BY %s needs a positive bucket count (INTO N"
                                    + " BUCKETS). %s",
                            what, distribution.getBucketKeys(), works));
        }
        return new Term(Transform.BUCKET, distribution.getBucketKeys().get(0), count);
    }

    private static Term parseTerm(String what, String text) {
        if (text.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "%s: option '%s' has an empty term; separate terms by single commas"
                                    + " (allowed terms: %s)",
                            what, PARTITIONING.key(), FORMS));
        }
        Matcher function = FUNCTION.matcher(text);
        if (!function.matches()) {
            return new Term(Transform.IDENTITY, column(what, text, text), 0);
        }
        String name = function.group(1).toLowerCase(Locale.ROOT);
        Transform transform = null;
        for (Transform candidate : Transform.values()) {
            if (candidate != Transform.IDENTITY && candidate.sqlName.equals(name)) {
                transform = candidate;
            }
        }
        if (transform == null) {
            throw new ValidationException(
                    String.format(
                            "%s: partition term '%s' uses the unknown transform '%s'; allowed"
                                    + " terms: %s",
                            what, text, function.group(1), FORMS));
        }
        List<String> arguments = splitTopLevel(function.group(2));
        int expected = transform.takesArgument ? 2 : 1;
        if (arguments.size() != expected || arguments.stream().anyMatch(String::isBlank)) {
            throw new ValidationException(
                    String.format(
                            "%s: partition term '%s' needs %s; e.g. %s",
                            what,
                            text,
                            transform.takesArgument
                                    ? "two arguments, a whole number and a column"
                                    : "one argument, a column",
                            new Term(transform, "c", 16)));
        }
        if (!transform.takesArgument) {
            return new Term(transform, column(what, text, arguments.get(0)), 0);
        }
        int argument;
        try {
            argument = Integer.parseInt(arguments.get(0).trim());
        } catch (NumberFormatException e) {
            argument = 0;
        }
        if (argument <= 0) {
            throw new ValidationException(
                    String.format(
                            "%s: partition term '%s' needs a positive whole number as %s, got '%s'",
                            what,
                            text,
                            transform == Transform.BUCKET ? "bucket count" : "width",
                            arguments.get(0).trim()));
        }
        return new Term(transform, column(what, text, arguments.get(1)), argument);
    }

    private static String column(String what, String term, String text) {
        String name = text.trim();
        if (name.length() >= 2 && name.startsWith("`") && name.endsWith("`")) {
            return name.substring(1, name.length() - 1).replace("``", "`");
        }
        if (!PLAIN_NAME.matcher(name).matches()) {
            throw new ValidationException(
                    String.format(
                            "%s: partition term '%s' is not one of the allowed terms: %s (quote"
                                    + " column names with other characters in backticks)",
                            what, term, FORMS));
        }
        return name;
    }

    private static String quote(String column) {
        return PLAIN_NAME.matcher(column).matches()
                ? column
                : "`" + column.replace("`", "``") + "`";
    }

    /** {@code text} split at the commas outside parentheses and backticks. */
    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '`') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static boolean isTopLevel(Schema schema, int fieldId) {
        return schema.columns().stream().anyMatch(column -> column.fieldId() == fieldId);
    }
}
