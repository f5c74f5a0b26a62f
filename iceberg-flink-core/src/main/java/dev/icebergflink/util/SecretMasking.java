package dev.icebergflink.util;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;

/**
 * Hides secrets (passwords, keys, tokens, credentials) before a property map or a URI is shown in a
 * {@code toString()}, a log line, an exception or a plan.
 *
 * <p>It exists because catalog properties carry credentials next to harmless settings, and no
 * secret may appear anywhere a user or an operator can read it (logs, plans, exceptions). A key is
 * treated as secret when one of its words (the parts between {@code .}, {@code -}, {@code _} and
 * other separators) looks like a secret: it contains {@code password}, {@code passwd}, {@code
 * secret}, {@code token}, {@code credential} or {@code auth}, ends in {@code key} (as in {@code
 * s3.access-key-id} or {@code fs.s3a.secret.key}), equals {@code pwd}, or starts with {@code sas}.
 * The rule errs on the side of hiding: a masked harmless value costs nothing, a shown secret cannot
 * be taken back.
 *
 * <p>Values of other keys are shown, except that a password embedded in a URI ({@code
 * scheme://user:password@host} or a {@code password=} query parameter) is masked as well.
 */
@Internal
public final class SecretMasking {

    /** What a masked value is replaced with. */
    public static final String MASK = "******";

    private static final Pattern WORD_SEPARATOR = Pattern.compile("[^a-z0-9]+");

    /** {@code scheme://user:password@}: group 1 is everything up to and including the colon. */
    private static final Pattern URI_USER_INFO = Pattern.compile("(//[^/@:\\s]*:)[^/@\\s]*@");

    /** {@code password=...} (or any secret-looking parameter) inside a URI query or JDBC URL. */
    private static final Pattern SECRET_PARAMETER =
            Pattern.compile(
                    "((?<![a-z0-9])(?:(?:password|passwd|pwd|secret|token|credential|key)[a-z0-9_.-]*|sig)=)"
                            + "[^&;\\s]*",
                    Pattern.CASE_INSENSITIVE);

    private SecretMasking() {}

    /** Whether the value of a property with this key must never be shown. */
    public static boolean isSecretKey(String key) {
        if (key == null) {
            return false;
        }
        for (String word : WORD_SEPARATOR.split(splitCamelCase(key).toLowerCase(Locale.ROOT))) {
            if (isSecretWord(word)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value of the property {@code key} as it may be shown: {@link #MASK} for secret keys,
     * otherwise the value with any password inside a URI masked. {@code null} stays {@code null}.
     */
    public static String mask(String key, String value) {
        if (value == null) {
            return null;
        }
        return isSecretKey(key) ? MASK : maskUri(value);
    }

    /**
     * A copy of {@code properties}, sorted by key for stable output, in which every secret value is
     * replaced by {@link #MASK} (see {@link #mask(String, String)}).
     */
    public static Map<String, String> maskProperties(Map<String, String> properties) {
        Map<String, String> masked = new TreeMap<>();
        if (properties != null) {
            properties.forEach((key, value) -> masked.put(key, mask(key, value)));
        }
        return masked;
    }

    /**
     * The text with passwords inside URIs masked: the password of {@code
     * scheme://user:password@...} and the values of secret-looking parameters such as {@code
     * ?password=...}.
     */
    public static String maskUri(String text) {
        if (text == null) {
            return null;
        }
        String result =
                URI_USER_INFO.matcher(text).replaceAll("$1" + Matcher.quoteReplacement(MASK) + "@");
        return SECRET_PARAMETER.matcher(result).replaceAll("$1" + Matcher.quoteReplacement(MASK));
    }

    private static boolean isSecretWord(String word) {
        return word.contains("password")
                || word.contains("passwd")
                || word.equals("pwd")
                || word.contains("secret")
                || word.contains("token")
                || word.contains("credential")
                || word.contains("auth")
                || word.endsWith("key")
                || word.startsWith("sas");
    }

    /** {@code accessKeyId} becomes {@code access.Key.Id} so that camel-case words are seen too. */
    private static String splitCamelCase(String key) {
        return key.replaceAll("([a-z0-9])([A-Z])", "$1.$2");
    }
}
