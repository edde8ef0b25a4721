package dev.sluice.jmh.support;

/** How requests spread over keys. */
public enum Distribution {
    /** Every key equally likely. */
    UNIFORM,
    /** Zipf with exponent 1: the key of rank r is drawn with probability proportional to 1/r. */
    ZIPF
}
