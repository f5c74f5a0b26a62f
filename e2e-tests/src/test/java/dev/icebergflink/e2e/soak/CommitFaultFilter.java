package dev.icebergflink.e2e.soak;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Makes the real REST catalog server fail one chosen table commit ({@code POST
 * /v1/namespaces/<ns>/tables/<table>}), in one of two ways a catalog fails in production: it
 * rejects the commit without applying it, or it applies the commit and the answer is lost (a proxy
 * or gateway answers an error instead). Every other request passes through untouched.
 *
 * <p>Why it exists: a commit whose outcome the writer cannot know is the hardest case for
 * exactly-once. Iceberg's REST client turns a 500/502/503/504 answer to a commit into {@code
 * CommitStateUnknownException}, so the sink cannot tell the two cases apart from the error; only
 * the table content afterwards shows whether it committed the data once.
 */
public final class CommitFaultFilter implements Filter {

    /** How the chosen commit fails. */
    public enum Fault {
        /** Answer 500 without applying the commit. */
        REJECT_WITH_500,
        /** Apply the commit, then answer 504 (the client never sees the success). */
        APPLY_THEN_504,
        /**
         * Apply the commit, then answer 429 (too many requests): Iceberg's REST client sends the
         * same commit again by itself, which then conflicts with the commit it already made.
         */
        APPLY_THEN_429
    }

    private static final Pattern COMMIT =
            Pattern.compile("^/v1/namespaces/([^/]+)/tables/([^/]+)$");

    private final Map<String, Armed> armed = new ConcurrentHashMap<>();

    /**
     * Fails the next commit to {@code table} with {@code fault}.
     *
     * @return completed with a description once the fault was injected
     */
    public CompletableFuture<String> arm(TableIdentifier table, Fault fault) {
        Armed entry = new Armed(fault, new CompletableFuture<>());
        if (armed.putIfAbsent(key(table.namespace().level(0), table.name()), entry) != null) {
            throw new IllegalStateException("A commit fault is already armed for " + table);
        }
        return entry.injected;
    }

    /** Removes a fault that did not fire (e.g. when the test gives up waiting). */
    public void disarm(TableIdentifier table) {
        armed.remove(key(table.namespace().level(0), table.name()));
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        Matcher commit = COMMIT.matcher(http.getRequestURI());
        if (!"POST".equals(http.getMethod()) || !commit.matches()) {
            chain.doFilter(request, response);
            return;
        }
        String key = key(commit.group(1), commit.group(2));
        Armed fault = armed.remove(key);
        if (fault == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse out = (HttpServletResponse) response;
        if (fault.fault == Fault.REJECT_WITH_500) {
            sendError(out, 500, "InternalServerError", "injected: commit rejected, not applied");
            fault.injected.complete("commit to " + key + " rejected with 500 (not applied)");
            return;
        }
        BufferedResponse buffered = new BufferedResponse(out);
        chain.doFilter(request, buffered);
        if (buffered.getStatus() != 200) {
            // The real server refused it (e.g. a conflict): pass that on and fail the next one.
            out.getOutputStream().write(buffered.bytes());
            armed.putIfAbsent(key, fault);
            return;
        }
        out.reset();
        if (fault.fault == Fault.APPLY_THEN_429) {
            sendError(out, 429, "TooManyRequestsException", "injected: commit applied, then 429");
            fault.injected.complete(
                    "commit to " + key + " applied, then answered 429 (the client retries it)");
            return;
        }
        sendError(out, 504, "GatewayTimeoutException", "injected: commit applied, answer lost");
        fault.injected.complete("commit to " + key + " applied, then answered 504");
    }

    private static void sendError(HttpServletResponse out, int code, String type, String message)
            throws IOException {
        out.setStatus(code);
        out.setContentType("application/json");
        byte[] body =
                String.format(
                                "{\"error\":{\"message\":\"%s\",\"type\":\"%s\",\"code\":%d}}",
                                message, type, code)
                        .getBytes(StandardCharsets.UTF_8);
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
    }

    private static String key(String namespace, String table) {
        return namespace + "." + table;
    }

    private record Armed(Fault fault, CompletableFuture<String> injected) {}

    /** Keeps the servlet's body in memory, so that it can be dropped or passed on afterwards. */
    private static final class BufferedResponse extends HttpServletResponseWrapper {
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final ServletOutputStream stream =
                new ServletOutputStream() {
                    @Override
                    public void write(int b) {
                        body.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        body.write(b, off, len);
                    }

                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                        throw new UnsupportedOperationException("blocking only");
                    }
                };
        private PrintWriter writer;

        BufferedResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() {
            return stream;
        }

        @Override
        public PrintWriter getWriter() {
            if (writer == null) {
                writer = new PrintWriter(new OutputStreamWriter(body, StandardCharsets.UTF_8));
            }
            return writer;
        }

        @Override
        public void flushBuffer() {
            if (writer != null) {
                writer.flush();
            }
        }

        @Override
        public void setContentLength(int length) {}

        @Override
        public void setContentLengthLong(long length) {}

        byte[] bytes() {
            flushBuffer();
            return body.toByteArray();
        }
    }
}
