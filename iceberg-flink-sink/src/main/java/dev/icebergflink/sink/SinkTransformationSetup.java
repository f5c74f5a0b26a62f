package dev.icebergflink.sink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.SinkTransformation;

/**
 * Settles on the sink transformation what only it can carry, before Flink reads it for the writer
 * and committer.
 *
 * <p>With operator uids on, the sink needs a uid too (Flink rejects uids inside a sink topology
 * otherwise, and the writer's and committer's uids derive from it), so when the user gave none it
 * takes {@link IcebergSink#writerUid()}; and {@code write-parallelism} becomes the writer's
 * parallelism unless the user set one on the sink. Two Iceberg sinks of one job with the same uids
 * are rejected here, naming the option, instead of failing later with a hash collision.
 */
final class SinkTransformationSetup {

    private SinkTransformationSetup() {}

    /**
     * Adjusts the transformation of {@code sink} in {@code env}.
     *
     * @throws IllegalArgumentException when another Iceberg sink of the job uses the same uid
     *     suffix
     */
    static void apply(IcebergSink sink, StreamExecutionEnvironment env) {
        for (Transformation<?> t : env.getTransformations()) {
            if (!(t instanceof SinkTransformation<?, ?> sinkTransformation)) {
                continue;
            }
            Sink<?> other = sinkTransformation.getSink();
            if (other == sink) {
                if (sink.operatorUids() && sinkTransformation.getUid() == null) {
                    sinkTransformation.setUid(sink.writerUid());
                }
                Integer parallelism = sink.writeParallelism();
                if (parallelism != null && !sinkTransformation.isParallelismConfigured()) {
                    sinkTransformation.setParallelism(parallelism, true);
                }
            } else if (sink.operatorUids()
                    && other instanceof IcebergSink otherSink
                    && otherSink.operatorUids()
                    && otherSink.uidSuffix().equals(sink.uidSuffix())) {
                throw new IllegalArgumentException(
                        "Two Iceberg sinks in one job use the uid suffix '"
                                + sink.uidSuffix()
                                + "' (tables "
                                + otherSink.tableName()
                                + " and "
                                + sink.tableName()
                                + "); give each a distinct option 'uid-suffix'");
            }
        }
    }
}
