package dev.icebergflink.testing.servers;

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
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Disturbs table commits of a REST catalog server the way networks and servers do, for tests of
 * what a client makes of it: a commit refused, or a commit applied whose answer is lost or replaced
 * by an error.
 *
 * <p>It exists because the failures that threaten exactly-once are exactly those where the server
 * and the client disagree on whether a commit happened; a real server with a filter in front of it
 * produces them on demand, while the commit itself stays the real catalog's. Iceberg's REST client
 * turns 500, 502, 503 and 504 answers to a commit into an unknown commit state, 409 into a
 * conflict, and resends a request answered with 429 by itself.
 *
 * <p>Faults are either queued for the next commits of any table ({@link #disturbNextCommits}) or
 * armed for the next commit of one table ({@link #arm}). A commit the real server itself refuses (a
 * conflict) is passed on unchanged, and its fault waits for the next commit.
 */
public final class RestCommitFaults implements Filter {

    /** What the server does with a disturbed table commit. */
    public enum Fault {
        /** Refuses the commit with 500 without applying it. */
        REFUSE_WITH_500(false, 500, "InternalServerError"),
        /** Refuses the commit with 503 without applying it. */
        REFUSE_WITH_503(false, 503, "ServiceUnavailableException"),
        /**
         * Applies the commit, then answers 409 Conflict, as the server answers an HTTP-level resend
         * of a request whose first send it already applied.
         */
        APPLY_THEN_409(true, 409, "CommitFailedException"),
        /** Applies the commit, then answers 429: Iceberg's REST client sends it again itself. */
        APPLY_THEN_429(true, 429, "TooManyRequestsException"),
        /** Applies the commit, then answers 503, as when the answer is lost behind a proxy. */
        APPLY_THEN_503(true, 503, "ServiceUnavailableException"),
        /** Applies the commit, then answers 504, as a gateway whose wait for the answer ran out. */
        APPLY_THEN_504(true, 504, "GatewayTimeoutException");

        private final boolean apply;
        private final int status;
        private final String type;

        Fault(boolean apply, int status, String type) {
            this.apply = apply;
            this.status = status;
            this.type = type;
        }
    }

    /** {@code POST /v1[/prefix]/namespaces/<ns>/tables/<table>}: Iceberg's table commit route. */
    private static final Pattern TABLE_COMMIT =
            Pattern.compile("/v1/(?:.+/)?namespaces/([^/]+)/tables/([^/]+)");

    private final Queue<Armed> anyTable = new ConcurrentLinkedQueue<>();
    private final Map<String, Armed> byTable = new ConcurrentHashMap<>();
    private final AtomicInteger disturbed = new AtomicInteger();

    /** Disturbs the next table commits, of any table, one fault each, in this order. */
    public void disturbNextCommits(Fault... faults) {
        for (Fault fault : faults) {
            anyTable.add(new Armed(fault, new CompletableFuture<>()));
        }
    }

    /**
     * Disturbs the next commit to {@code table} (a single-level namespace) with {@code fault}.
     *
     * @return completed with a description once the fault was injected
     */
    public CompletableFuture<String> arm(TableIdentifier table, Fault fault) {
        Armed armed = new Armed(fault, new CompletableFuture<>());
        if (byTable.putIfAbsent(key(table.namespace().level(0), table.name()), armed) != null) {
            throw new IllegalStateException("A commit fault is already armed for " + table);
        }
        return armed.injected;
    }

    /** Removes the fault armed for {@code table} if it did not fire. */
    public void disarm(TableIdentifier table) {
        byTable.remove(key(table.namespace().level(0), table.name()));
    }

    /** How many commits were disturbed since the start or the last {@link #clear()}. */
    public int disturbedCommits() {
        return disturbed.get();
    }

    /** Removes every fault not yet used and resets the count of disturbed commits. */
    public void clear() {
        anyTable.clear();
        byTable.clear();
        disturbed.set(0);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        Matcher commit = TABLE_COMMIT.matcher(http.getRequestURI());
        if (!"POST".equals(http.getMethod()) || !commit.matches()) {
            chain.doFilter(request, response);
            return;
        }
        String table = key(commit.group(1), commit.group(2));
        Armed armed = byTable.remove(table);
        boolean queued = armed == null;
        if (queued) {
            armed = anyTable.poll();
        }
        if (armed == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse out = (HttpServletResponse) response;
        if (armed.fault.apply) {
            BufferedResponse applied = new BufferedResponse(out);
            chain.doFilter(request, applied);
            if (applied.getStatus() != HttpServletResponse.SC_OK) {
                // the real server refused it: pass that on, and disturb the next commit instead
                out.getOutputStream().write(applied.bytes());
                if (queued) {
                    anyTable.add(armed);
                } else {
                    byTable.putIfAbsent(table, armed);
                }
                return;
            }
            out.reset();
        }
        disturbed.incrementAndGet();
        answer(out, armed.fault);
        armed.injected.complete(
                "commit to "
                        + table
                        + (armed.fault.apply ? " applied, then answered " : " refused with ")
                        + armed.fault.status);
    }

    private static void answer(HttpServletResponse out, Fault fault) throws IOException {
        out.setStatus(fault.status);
        out.setContentType("application/json");
        byte[] body =
                String.format(
                                "{\"error\":{\"message\":\"injected by the test: %s\","
                                        + "\"type\":\"%s\",\"code\":%d}}",
                                fault, fault.type, fault.status)
                        .getBytes(StandardCharsets.UTF_8);
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
    }

    private static String key(String namespace, String table) {
        return namespace + "." + table;
    }

    private static final class Armed {
        private final Fault fault;
        private final CompletableFuture<String> injected;

        Armed(Fault fault, CompletableFuture<String> injected) {
            this.fault = fault;
            this.injected = injected;
        }
    }

    /** Keeps the servlet's answer in memory, so that it can be dropped or passed on afterwards. */
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
