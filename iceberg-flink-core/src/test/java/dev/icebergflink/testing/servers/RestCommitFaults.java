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
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Disturbs table commits of a REST catalog server the way networks and servers do, for tests of
 * what a client makes of it: a commit applied whose answer is lost or replaced, or a commit
 * refused.
 *
 * <p>It exists because the failures that threaten exactly-once are exactly those where the server
 * and the client disagree on whether a commit happened; a real server with a filter in front of it
 * produces them on demand, while the commit itself stays the real catalog's.
 */
public final class RestCommitFaults implements Filter {

    /** What the server does with a disturbed table commit. */
    public enum Fault {
        /**
         * Applies the commit, then answers 409 Conflict, as the server answers an HTTP-level resend
         * of a request whose first send it already applied.
         */
        APPLY_THEN_CONFLICT(true, 409, "CommitFailedException"),
        /** Applies the commit, then answers 503, as when the answer is lost behind a proxy. */
        APPLY_THEN_UNAVAILABLE(true, 503, "ServiceUnavailableException"),
        /** Refuses the commit with 503 without applying it. */
        REFUSE_UNAVAILABLE(false, 503, "ServiceUnavailableException");

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
            Pattern.compile("/v1/(.+/)?namespaces/[^/]+/tables/[^/]+");

    private final Queue<Fault> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger disturbed = new AtomicInteger();

    /** Disturbs the next table commits, one fault each, in this order. */
    public void disturbNextCommits(Fault... faults) {
        pending.addAll(List.of(faults));
    }

    /** How many commits were disturbed so far. */
    public int disturbedCommits() {
        return disturbed.get();
    }

    /** Removes faults not yet used and resets the count of disturbed commits. */
    public void clear() {
        pending.clear();
        disturbed.set(0);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        Fault fault = null;
        if ("POST".equals(http.getMethod())
                && TABLE_COMMIT.matcher(http.getRequestURI()).matches()) {
            fault = pending.poll();
        }
        if (fault == null) {
            chain.doFilter(request, response);
            return;
        }
        disturbed.incrementAndGet();
        if (fault.apply) {
            chain.doFilter(request, new DiscardedResponse((HttpServletResponse) response));
        }
        HttpServletResponse answer = (HttpServletResponse) response;
        answer.setStatus(fault.status);
        answer.setContentType("application/json");
        byte[] body =
                ("{\"error\":{\"message\":\"disturbed by the test: "
                                + fault
                                + "\",\"type\":\""
                                + fault.type
                                + "\",\"code\":"
                                + fault.status
                                + "}}")
                        .getBytes(StandardCharsets.UTF_8);
        answer.setContentLength(body.length);
        answer.getOutputStream().write(body);
    }

    /** A response whose status, headers and body the client never sees. */
    private static final class DiscardedResponse extends HttpServletResponseWrapper {
        private final ServletOutputStream sink =
                new ServletOutputStream() {
                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {}

                    @Override
                    public void write(int b) {}

                    @Override
                    public void write(byte[] b, int off, int len) {}
                };

        DiscardedResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() {
            return sink;
        }

        @Override
        public PrintWriter getWriter() {
            return new PrintWriter(OutputStream.nullOutputStream());
        }

        @Override
        public void setStatus(int status) {}

        @Override
        public void sendError(int status) {}

        @Override
        public void sendError(int status, String message) {}

        @Override
        public void setHeader(String name, String value) {}

        @Override
        public void addHeader(String name, String value) {}

        @Override
        public void setContentType(String type) {}

        @Override
        public void setContentLength(int length) {}

        @Override
        public void setContentLengthLong(long length) {}

        @Override
        public void flushBuffer() {}

        @Override
        public boolean isCommitted() {
            return false;
        }
    }
}
