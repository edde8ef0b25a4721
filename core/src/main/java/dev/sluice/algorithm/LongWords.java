package dev.sluice.algorithm;

/**
 * The words a sliding log's ring lives in, as the algorithm needs them: plain reads and writes by byte offset (a
 * multiple of 8). The algorithm knows nothing of where they are; the limiter orders the accesses around them.
 */
public interface LongWords {

    long getLongPlain(int offset);

    void putLongPlain(int offset, long value);
}
