package dev.icebergflink.data.parquet;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;

/**
 * The page index (column indexes and offset indexes) of the current row group of a Parquet file,
 * read on demand from the file.
 *
 * <p>It exists because Iceberg's batched reader keeps its Parquet file reader private, so the page
 * index cannot be asked of it; but it does hand each row group's column chunk metadata over, and
 * that metadata (from the footer Iceberg already read) holds where each chunk's indexes are. So
 * this reads just those index structures: one small read per index asked for (the filter columns'
 * column and offset indexes, and the offset indexes of the batched output columns), through a
 * stream of the file opened once per file and closed with the reader. A chunk without an index
 * reads as "no index", which Parquet's filter takes as "every row may match".
 */
final class ParquetPageIndex implements ColumnIndexStore, Closeable {

    private final InputFile file;
    private SeekableInputStream stream;
    private Map<ColumnPath, ColumnChunkMetaData> chunks = Map.of();
    private final Map<ColumnPath, ColumnIndex> columnIndexes = new HashMap<>();
    private final Map<ColumnPath, OffsetIndex> offsetIndexes = new HashMap<>();

    ParquetPageIndex(InputFile file) {
        this.file = file;
    }

    /** Starts a row group with column chunks {@code chunks}. */
    void setRowGroup(Map<ColumnPath, ColumnChunkMetaData> rowGroupChunks) {
        this.chunks = rowGroupChunks;
        columnIndexes.clear();
        offsetIndexes.clear();
    }

    @Override
    public ColumnIndex getColumnIndex(ColumnPath column) {
        if (columnIndexes.containsKey(column)) {
            return columnIndexes.get(column);
        }
        ColumnChunkMetaData chunk = chunks.get(column);
        ColumnIndex index = null;
        if (chunk != null && chunk.getColumnIndexReference() != null) {
            byte[] bytes = read(chunk.getColumnIndexReference(), column);
            try {
                index =
                        ParquetMetadataConverter.fromParquetColumnIndex(
                                chunk.getPrimitiveType(),
                                Util.readColumnIndex(new ByteArrayInputStream(bytes)));
            } catch (IOException e) {
                throw new UncheckedIOException(describe("column index", column), e);
            }
        }
        columnIndexes.put(column, index);
        return index;
    }

    @Override
    public OffsetIndex getOffsetIndex(ColumnPath column) throws MissingOffsetIndexException {
        OffsetIndex index = offsetIndexes.get(column);
        if (index != null) {
            return index;
        }
        ColumnChunkMetaData chunk = chunks.get(column);
        if (chunk == null || chunk.getOffsetIndexReference() == null) {
            throw new MissingOffsetIndexException(column);
        }
        byte[] bytes = read(chunk.getOffsetIndexReference(), column);
        try {
            index =
                    ParquetMetadataConverter.fromParquetOffsetIndex(
                            Util.readOffsetIndex(new ByteArrayInputStream(bytes)));
        } catch (IOException e) {
            throw new UncheckedIOException(describe("offset index", column), e);
        }
        offsetIndexes.put(column, index);
        return index;
    }

    private byte[] read(IndexReference ref, ColumnPath column) {
        byte[] bytes = new byte[ref.getLength()];
        try {
            if (stream == null) {
                stream = file.newStream();
            }
            stream.seek(ref.getOffset());
            int done = 0;
            while (done < bytes.length) {
                int read = stream.read(bytes, done, bytes.length - done);
                if (read < 0) {
                    throw new EOFException(describe("page index", column) + ": file too short");
                }
                done += read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(describe("page index", column), e);
        }
        ParquetScanCounters.PAGE_INDEX_BYTES.addAndGet(bytes.length);
        return bytes;
    }

    private String describe(String what, ColumnPath column) {
        return String.format(
                "Cannot read the %s of Parquet column %s in %s",
                what, column.toDotString(), file.location());
    }

    @Override
    public void close() throws IOException {
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }
}
